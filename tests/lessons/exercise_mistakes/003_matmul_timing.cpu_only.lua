-- expect: no matrix product ran on cuda:1
-- exercise: 003_matmul_timing
function time_matmul(device, n)
  local A = torch.randn{n, n}
  local B = torch.randn{n, n}
  local start = time.perf_counter()
  local C = A:mm(B)
  return time.perf_counter() - start
end
