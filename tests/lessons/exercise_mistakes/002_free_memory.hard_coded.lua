-- expect: sort by torch.cuda.mem_get_info(i), asked now
-- exercise: 002_free_memory
function gpus_by_free_memory() return {1, 0} end
