-- d2l's device helpers as globals: the tutorials call them everywhere, and
-- lessons may still define their own to show how they work.
function try_gpu(i)
  i = i or 0
  if torch.cuda.device_count() >= i + 1 then return torch.device('cuda:' .. i) end
  return torch.device('cpu')
end

function try_all_gpus()
  local devices = {}
  for i = 0, torch.cuda.device_count() - 1 do devices[#devices + 1] = torch.device('cuda:' .. i) end
  if #devices == 0 then devices[1] = torch.device('cpu') end
  return devices
end
