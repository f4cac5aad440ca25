-- expect: the GPU with the MOST free memory comes first (compare with >)
-- exercise: 002_free_memory
function gpus_by_free_memory()
  local order = {}
  for i = 0, torch.cuda.device_count() - 1 do order[#order + 1] = i end
  table.sort(order, function(a, b) return torch.cuda.mem_get_info(a) < torch.cuda.mem_get_info(b) end)
  return order
end
