-- exercise: 003_matmul_timing
-- Time a matrix product honestly (lessons c1, d5)
-- GPU work is queued: mm returns at once, before the product is done. Make
-- time_matmul(device, n) create two n-by-n random matrices ON `device`, then
-- time only their product: read time.perf_counter(), multiply, wait for the
-- device (torch.cuda.synchronize(device) when it is a GPU), read the clock
-- again, and return the seconds. The checker watches when you read the clock.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 2)

function time_matmul(device, n)
  local A = torch.randn{n, n, device = device}
  local B = torch.randn{n, n, device = device}
  local start = time.perf_counter()
  local C = A:mm(B)
  -- TODO: wait for the device to finish before reading the clock
  return time.perf_counter() - start
end

print(string.format('cpu: %.6f s', time_matmul(torch.device('cpu'), 200)))
print(string.format('gpu: %.6f s', time_matmul(try_gpu(), 200)))
