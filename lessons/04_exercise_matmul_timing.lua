-- Exercise: timing matrix products on the CPU and on a device
-- %% A helper that times a function fairly
-- GPU work is queued and runs asynchronously, so a timer has to wait for the
-- device (torch.cuda.synchronize) before it is read; otherwise it only
-- measures how long it took to *queue* the work.
function timeit(f)
  torch.cuda.synchronize()
  local t0 = time.perf_counter()
  f()
  torch.cuda.synchronize()
  return time.perf_counter() - t0
end
device = torch.cuda.is_available() and torch.device('cuda:0') or torch.device('cpu')
print("timing helper ready; the device under test is", device)
-- %% A large product: CPU versus device
N = 512
A = torch.rand{N, N}
A_dev = A:to(device)
A_dev:mm(A_dev)  -- a warm-up run, so one-time setup is not counted
t_cpu = timeit(function() A:mm(A) end)
t_dev = timeit(function() A_dev:mm(A_dev) end)
print(string.format("%dx%d matmul on cpu:    %.4f s", N, N, t_cpu))
print(string.format("%dx%d matmul on %s: %.4f s", N, N, tostring(device), t_dev))
-- %% A tiny product: CPU versus device
a = torch.rand{4, 4}
a_dev = a:to(device)
t_cpu_small = timeit(function() a:mm(a) end)
t_dev_small = timeit(function() a_dev:mm(a_dev) end)
print(string.format("4x4 matmul on cpu:    %.4f s", t_cpu_small))
print(string.format("4x4 matmul on %s: %.4f s", tostring(device), t_dev_small))
-- %% Logging a norm after every product, one :item() at a time
-- Each :item() copies one number to the host and first waits for the device.
STEPS, M = 1000, 100
B = torch.rand{M, M, device = device}
log_host = {}
t_item = timeit(function()
  for i = 1, STEPS do
    log_host[i] = B:mm(B):norm():item()
  end
end)
print(string.format("%d products, norm read with :item() each step: %.4f s", STEPS, t_item))
-- %% Keeping the log on the device and reading it once
log_dev = {}
t_once = timeit(function()
  for i = 1, STEPS do
    log_dev[i] = B:mm(B):norm()
  end
  log_dev = torch.stack(log_dev):cpu()
end)
print(string.format("%d products, norms kept on the device, one copy: %.4f s", STEPS, t_once))
print("both logs agree:", math.abs(log_dev[0]:item() - log_host[1]) < 1e-3 * log_host[1])
-- %% What the numbers show
print("On a real GPU the large product is many times faster than on the CPU, the")
print("tiny one is not (launching work and synchronising cost more than the")
print("arithmetic), and reading a value back every step is slower than keeping the")
print("log on the device, because each :item() stalls until the GPU is idle.")
if torch.cuda.is_virtual(0) then
  print("Here the devices are virtual: they are emulated in host memory by the CPU,")
  print("so there is no speed-up to see and the timings above are all CPU work.")
end
