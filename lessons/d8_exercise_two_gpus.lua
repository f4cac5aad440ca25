-- Dive into Deep Learning, 5.6 GPUs § 5.6.5, exercise 4: Two matmuls on two GPUs vs one GPU
-- needs: 2 gpus
-- %% Setup
-- Work is queued on each device and runs asynchronously, so products
-- launched on two different GPUs can run at the same time, while on one GPU
-- they run one after the other. `time.timeit` waits for every device.
d0, d1 = try_gpu(0), try_gpu(1)
-- Emulated GPUs compute on the CPU; slices of one GPU share its compute units.
real_pair = torch.cuda.device_count() >= 2 and not torch.cuda.is_emulated(0) and not torch.cuda.is_virtual(0)
print("first device:", d0, "| second device:", d1)
-- %% The inputs: one matrix on each device, and a copy of the second on d0
-- Two real GPUs get bigger matrices, so that the products outweigh launch
-- costs; anything that runs on the CPU stays small.
N = real_pair and 8192 or 1024
P = torch.rand{N, N, device = d0}
Q = torch.rand{N, N, device = d1}
Q_on_d0 = Q:to(d0)
print("P on", P.device, "| Q on", Q.device, "| Q_on_d0 on", Q_on_d0.device)
-- %% Both products on one device, in sequence
t_one = time.timeit(function() P:mm(P); Q_on_d0:mm(Q_on_d0) end)
print(string.format("two products on %s:             %.4f s", tostring(d0), t_one))
-- %% One product on each device
t_two = time.timeit(function() P:mm(P); Q:mm(Q) end)
print(string.format("one product on each of %s, %s: %.4f s", tostring(d0), tostring(d1), t_two))
-- %% Same answers either way (up to float32 rounding)
ref = Q_on_d0:mm(Q_on_d0)
print("results match:", (Q:mm(Q):to(d0) - ref):abs():max():item() < 1e-4 * ref:abs():max():item())
-- %% What the numbers show
-- With two real GPUs the second time is close to half the first: each GPU
-- does one product and they overlap, so scaling is nearly linear. Anywhere
-- else the two times measure the same work done one product after the other,
-- and their ratio would only show noise, so it is printed for real GPUs only.
if real_pair then
  print(string.format("speed-up with two GPUs: %.2fx (about twice as fast when they overlap)", t_one / t_two))
elseif torch.cuda.device_count() >= 2 and torch.cuda.is_emulated(0) then
  print("The GPUs here are emulated in host memory: each runs its product on the")
  print("CPU as soon as it is asked, one after the other, so two devices cannot")
  print("beat one. With two real GPUs the second time is about half the first.")
elseif torch.cuda.device_count() >= 2 then
  print("cuda:0 and cuda:1 are two slices of one physical GPU: both products share")
  print("its compute units, so they cannot run twice as fast. The parallel")
  print("speed-up needs two real GPUs.")
else
  print("Fewer than two GPUs: try_gpu(1) fell back to the CPU, so this compared")
  print("the CPU and one device with one device alone, not two GPUs with one.")
end
