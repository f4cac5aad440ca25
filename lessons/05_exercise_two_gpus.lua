-- Exercise: two products on two devices versus one device
-- %% Setup
-- Devices queue work asynchronously, so two products launched on two different
-- GPUs can run at the same time; on one GPU they run one after the other.
function timeit(f)
  torch.cuda.synchronize()
  local t0 = time.perf_counter()
  f()
  torch.cuda.synchronize()
  return time.perf_counter() - t0
end
function try_gpu(i)
  if torch.cuda.device_count() >= i + 1 then return torch.device('cuda:' .. i) end
  return torch.device('cpu')
end
d0, d1 = try_gpu(0), try_gpu(1)
print("first device:", d0, " second device:", d1)
-- %% The inputs: one matrix on each device, plus a copy of the second on d0
N = 384
P = torch.rand{N, N, device = d0}
Q = torch.rand{N, N, device = d1}
Q_on_d0 = Q:to(d0)
P:mm(P); Q:mm(Q)  -- warm-up
print("P on", P.device, "| Q on", Q.device, "| Q_on_d0 on", Q_on_d0.device)
-- %% Both products on one device, in sequence
t_one = timeit(function()
  P:mm(P)
  Q_on_d0:mm(Q_on_d0)
end)
print(string.format("two products on %s:             %.4f s", tostring(d0), t_one))
-- %% One product on each device
t_two = timeit(function()
  P:mm(P)
  Q:mm(Q)
end)
print(string.format("one product on each of %s, %s: %.4f s", tostring(d0), tostring(d1), t_two))
-- %% Same answers either way
print("results match:", (Q:mm(Q):to(d0) - Q_on_d0:mm(Q_on_d0)):abs():max():item() < 1e-3)
-- %% What to expect
print("With two real GPUs the second timing should be close to half the first:")
print("each GPU does one product and they overlap, so scaling is nearly linear.")
print("With a single GPU, try_gpu(1) falls back to the CPU and the comparison is")
print("GPU+CPU against GPU alone; with no GPU both sides run on the CPU.")
if torch.cuda.is_virtual(0) then
  print("Here the devices are virtual and emulated by the host CPU, so the two")
  print("timings are about the same: there is no real parallel hardware to use.")
end
