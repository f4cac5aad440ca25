-- exercise: 003_try_gpu
-- Write try_gpu and try_all_gpus (lessons a1, a3, d1, d4)
-- gpulab has d2l's try_gpu built in; here you write it. pick_gpu(i) returns
-- torch.device('cuda:i') when GPU i exists and torch.device('cpu') when it
-- does not; all_gpus() returns a list of every GPU's device, or {cpu} when
-- there is none. The checker pretends to have 0, 1 and 3 GPUs.
-- Check:  gpulab check THIS_FILE   (works with or without GPUs)

function pick_gpu(i)
  i = i or 0
  -- TODO: cuda:i if there are more than i GPUs, else the CPU
  return TODO
end

function all_gpus()
  local devices = {}
  -- TODO: one torch.device per GPU; {torch.device('cpu')} when there is none
  return devices
end

print(pick_gpu(0), pick_gpu(10))
for _, d in ipairs(all_gpus()) do print(d) end
