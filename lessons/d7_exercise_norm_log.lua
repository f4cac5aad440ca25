-- Dive into Deep Learning, 5.6 GPUs § 5.6.5, exercise 3: 1000 matmuls, logging the norm each step vs on the device
-- %% Timing GPU work honestly
-- The timer waits for the device before it starts and before it stops (GPU
-- work is queued and runs later), runs f once untimed as a warm-up, and keeps
-- the best of three runs.
function timeit(f)
  local function sync() if torch.cuda.is_available() then torch.cuda.synchronize() end end
  f()
  local best = math.huge
  for _ = 1, 3 do
    sync()
    local t0 = time.perf_counter()
    f()
    sync()
    best = math.min(best, time.perf_counter() - t0)
  end
  return best
end
device = try_gpu()
STEPS, M = 1000, 100
A = torch.rand{M, M, device = device}
B = torch.rand{M, M, device = device}
print(STEPS, "products of", M .. "x" .. M, "matrices on", device)
-- %% Version 1: read the norm back after every product
-- :norm() is the Frobenius norm (the square root of the sum of squares).
-- Each :item() copies one number to the host, and must first wait until the
-- device has finished everything queued so far.
log_host = {}
t_item = timeit(function()
  for i = 1, STEPS do
    log_host[i] = A:mm(B):norm():item()
  end
end)
print(string.format("norm read with :item() every step: %.4f s", t_item))
-- %% Version 2: keep the log on the device, copy it once
-- Each norm is written into a tensor that lives on the device; the loop never
-- waits for the device, and one copy brings the whole log back at the end.
t_once = timeit(function()
  local log = torch.empty(STEPS, {device = device})
  for i = 0, STEPS - 1 do
    log[i] = A:mm(B):norm()
  end
  log_dev = log:cpu()
end)
print(string.format("log kept on the device, one copy:  %.4f s", t_once))
print(string.format("ratio: %.2fx", t_item / t_once))
-- %% Both logs hold the same numbers
print("first entries:", string.format("%.3f  %.3f", log_host[1], log_dev[0]:item()))
print("logs agree:", math.abs(log_dev[STEPS - 1]:item() - log_host[STEPS]) < 1e-3 * log_host[STEPS])
-- %% What the numbers show
-- On a real GPU version 1 makes the GPU and the host take turns: the host
-- waits for each result and the GPU waits for the next launch. Version 2 lets
-- the host queue all the work while the GPU keeps busy, so it should be
-- clearly faster.
if not torch.cuda.is_available() or torch.cuda.get_device_name(0):find("emulated") then
  print("Here the 'device' computes on the CPU as soon as it is asked (no GPU, or")
  print("GPUs emulated in host memory): there is no queue to drain and no bus to")
  print("cross, so the stall this exercise is about cannot happen on this machine.")
  print("The two times differ only by the cost of the 1000 :item() calls and of")
  print("the writes into the log.")
elseif t_item > 1.2 * t_once then
  print("Reading every step was slower: each :item() stalled the GPU's queue.")
else
  print("The two versions were close: at this size the GPU finishes each product")
  print("before the next launch, so there is little queue to stall.")
end
