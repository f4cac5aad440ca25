-- expect: return the seconds, the second reading minus the first
-- exercise: 003_matmul_timing
function time_matmul(device, n)
  local A = torch.randn(n, n, {device = device})
  local B = torch.randn(n, n, {device = device})
  local start = time.perf_counter()
  local C = A:mm(B)
  if device.type == 'cuda' then torch.cuda.synchronize(device) end
  return (time.perf_counter() - start) * 1000
end
