-- exercise: 003_try_gpu
-- Reference solution: GPUs count from 0, so cuda:i exists when i < device_count().
function pick_gpu(i)
  i = i or 0
  if torch.cuda.device_count() >= i + 1 then return torch.device('cuda:' .. i) end
  return torch.device('cpu')
end

function all_gpus()
  local devices = {}
  for i = 0, torch.cuda.device_count() - 1 do devices[#devices + 1] = torch.device('cuda:' .. i) end
  if #devices == 0 then devices[1] = torch.device('cpu') end
  return devices
end

print(pick_gpu(0), pick_gpu(10))
for _, d in ipairs(all_gpus()) do print(d) end
