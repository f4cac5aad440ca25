-- expect: return a torch.device (torch.device('
-- exercise: 003_try_gpu
function pick_gpu(i)
  i = i or 0
  if i < torch.cuda.device_count() then return 'cuda:' .. i end
  return 'cpu'
end
function all_gpus() return {} end
