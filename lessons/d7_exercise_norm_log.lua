-- Dive into Deep Learning, 5.6 GPUs § 5.6.5, exercise 3: 1000 matmuls, logging the norm each step vs on the device
-- needs: 1 gpu
-- %% The setup
-- `time.timeit(f)` times f the honest way: it waits for the devices before
-- the clock starts and before it stops (GPU work is queued and runs later),
-- runs f once untimed as a warm-up, and keeps the best of three runs.
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
t_item = time.timeit(function()
  for i = 1, STEPS do
    log_host[i] = A:mm(B):norm():item()
  end
end)
print(string.format("norm read with :item() every step: %.4f s", t_item))
-- %% Version 2: keep the log on the device, copy it once
-- Each norm is written into a tensor that lives on the device; the loop never
-- waits for the device, and one copy brings the whole log back at the end.
t_once = time.timeit(function()
  local log = torch.empty(STEPS, {device = device})
  for i = 0, STEPS - 1 do
    log[i] = A:mm(B):norm()
  end
  log_dev = log:cpu()
end)
print(string.format("log kept on the device, one copy:  %.4f s", t_once))
-- %% Both logs hold the same numbers
print("first entries:", string.format("%.3f  %.3f", log_host[1], log_dev[0]:item()))
print("logs agree:", math.abs(log_dev[STEPS - 1]:item() - log_host[STEPS]) < 1e-3 * log_host[STEPS])
-- %% What the numbers show
-- On a real GPU version 1 makes the GPU and the host take turns: the host
-- waits for each result and the GPU waits for the next launch. Version 2 lets
-- the host queue all the work while the GPU keeps busy, so it is clearly
-- faster. An emulated device computes each product on the CPU as soon as it
-- is asked: there is no queue to drain and no bus to cross.
if not torch.cuda.is_available() or torch.cuda.is_emulated(0) then
  print("Here the device computes on the CPU (no GPU, or an emulated one), so the")
  print("stall this exercise is about cannot happen: the two times differ only by")
  print("the cost of 1000 :item() calls against 1000 writes into the log. On a real")
  print("GPU, version 2 is the faster one.")
else
  print(string.format("version 1 took %.2fx the time of version 2", t_item / t_once))
  if t_item > 1.2 * t_once then
    print("Reading every step was slower: each :item() stalled the GPU's queue.")
  else
    print("The two versions were close: at this size the GPU finishes each product")
    print("before the next launch, so there is little queue to stall.")
  end
end
