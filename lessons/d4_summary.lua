-- Dive into Deep Learning, 5.6 GPUs § 5.6.4: Summary
-- needs: 1 gpu
-- %% Three points
-- - You choose where data is stored and computed: the CPU or a GPU. By
--   default tensors and parameters are created in host memory and the CPU
--   computes.
-- - Every input of a computation, data and parameters alike, must be on the
--   same device; otherwise you get the *same device* error of 5.6.2.
-- - Moving data carelessly costs a lot of time. A classic mistake is to copy
--   the loss of every minibatch to the host to print or log it: each copy
--   waits for the GPU. Keep the log on the device and copy it back rarely.
-- %% The last point in code
-- Losses of a few (made-up) minibatches are written into a tensor that lives
-- on the device; only at the end is the whole log copied to the host, once.
-- Exercise d7 measures the difference.
device = try_gpu()
log = torch.zeros(5, {device = device})
w = torch.ones(4, {device = device})
for step = 0, 4 do
  local loss = (w * (step + 1)):square():mean()
  log[step] = loss
end
print(log:cpu())
