-- exercise: 003_matmul_timing
-- Reference solution: synchronise a GPU before the second clock reading.
function time_matmul(device, n)
  local A = torch.randn{n, n, device = device}
  local B = torch.randn{n, n, device = device}
  local start = time.perf_counter()
  local C = A:mm(B)
  if device.type == 'cuda' then torch.cuda.synchronize(device) end
  return time.perf_counter() - start
end

print(string.format('cpu: %.6f s', time_matmul(torch.device('cpu'), 200)))
print(string.format('gpu: %.6f s', time_matmul(try_gpu(), 200)))
