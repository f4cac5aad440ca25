-- expect: GPUs count from 0, so cuda:i exists only when i < device_count()
-- args: --seed 0
-- exercise: 003_try_gpu
function pick_gpu(i)
  i = i or 0
  if torch.cuda.device_count() >= i then return torch.device('cuda:' .. i) end
  return torch.device('cpu')
end
function all_gpus() return {} end
