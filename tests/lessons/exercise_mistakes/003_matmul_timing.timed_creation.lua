-- expect: the timing includes creating the random matrices
-- exercise: 003_matmul_timing
function time_matmul(device, n)
  local start = time.perf_counter()
  local A = torch.randn{n, n, device = device}
  local B = torch.randn{n, n, device = device}
  local C = A:mm(B)
  if device.type == 'cuda' then torch.cuda.synchronize(device) end
  return time.perf_counter() - start
end
