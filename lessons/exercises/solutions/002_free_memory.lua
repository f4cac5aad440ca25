-- exercise: 002_free_memory
-- Reference solution: ask each GPU once, then sort by the answers.
function gpus_by_free_memory()
  local order, free = {}, {}
  for i = 0, torch.cuda.device_count() - 1 do
    order[#order + 1] = i
    free[i] = torch.cuda.mem_get_info(i)
  end
  table.sort(order, function(a, b) return free[a] > free[b] end)
  return order
end

for _, i in ipairs(gpus_by_free_memory()) do
  local free, total = torch.cuda.mem_get_info(i)
  print(string.format('cuda:%d  %.0f MiB free of %.0f MiB', i, free / 2^20, total / 2^20))
end
