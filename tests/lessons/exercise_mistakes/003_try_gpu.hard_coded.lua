-- expect: ask torch.cuda.device_count() how many there are
-- exercise: 003_try_gpu
function pick_gpu(i)
  i = i or 0
  if torch.cuda.is_available() and i < torch.cuda.device_count() then return torch.device('cuda:' .. i) end
  return torch.device('cpu')
end
function all_gpus() return {torch.device('cuda:0'), torch.device('cuda:1')} end
