-- expect: torch.cuda.synchronize() waits for the current device only; pass the device
-- exercise: 003_matmul_timing
function time_matmul(device, n)
  local A = torch.randn{n, n, device = device}
  local B = torch.randn{n, n, device = device}
  local start = time.perf_counter()
  local C = A:mm(B)
  torch.cuda.synchronize()
  return time.perf_counter() - start
end
