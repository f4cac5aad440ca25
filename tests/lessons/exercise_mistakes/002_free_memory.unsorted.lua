-- expect: sort by torch.cuda.mem_get_info(i), asked now
-- exercise: 002_free_memory
function gpus_by_free_memory()
  local order = {}
  for i = 0, torch.cuda.device_count() - 1 do order[#order + 1] = i end
  return order
end
