-- expect: A and B were drawn on the CPU and then copied to cuda:1
-- exercise: 003_matmul_timing
function time_matmul(device, n)
  local A = torch.randn(n, n):to(device)
  local B = torch.randn(n, n):to(device)
  local start = time.perf_counter()
  local C = A:mm(B)
  if device.type == 'cuda' then torch.cuda.synchronize(device) end
  return time.perf_counter() - start
end
