-- expect: with no GPU, return {torch.device('cpu')}
-- exercise: 003_try_gpu
function pick_gpu(i)
  i = i or 0
  if i < torch.cuda.device_count() then return torch.device('cuda:' .. i) end
  return torch.device('cpu')
end
function all_gpus()
  local devices = {}
  for i = 0, torch.cuda.device_count() - 1 do devices[#devices + 1] = torch.device('cuda:' .. i) end
  return devices
end
