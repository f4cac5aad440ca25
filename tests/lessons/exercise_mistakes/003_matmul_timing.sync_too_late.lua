-- expect: the clock was read again without waiting for the GPU
-- exercise: 003_matmul_timing
function time_matmul(device, n)
  local A = torch.randn{n, n, device = device}
  local B = torch.randn{n, n, device = device}
  local start = time.perf_counter()
  local C = A:mm(B)
  local stop = time.perf_counter()
  if device.type == 'cuda' then torch.cuda.synchronize(device) end
  return stop - start
end
