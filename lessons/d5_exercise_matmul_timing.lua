-- Dive into Deep Learning, 5.6 GPUs § 5.6.5, exercise 1: A big and a small matmul, CPU vs GPU
-- needs: 1 gpu
-- %% Timing GPU work honestly
-- GPU work is queued: a call returns before the GPU has finished it. A timer
-- must wait for the devices (`torch.cuda.synchronize`) before it starts and
-- before it stops, or it only measures how long queuing took.
-- `time.timeit(f)` does that; it also runs f once untimed (a warm-up, so
-- one-time setup is not counted) and keeps the best of three runs.
device = try_gpu()
emulated = not torch.cuda.is_available() or torch.cuda.is_emulated(0)
print("device under test:", device, emulated and "(emulated: computes on the CPU)" or "")
-- %% A big product: CPU versus device
-- 2048 x 2048 matrices: about 17 billion floating-point operations.
N = 2048
A = torch.rand{N, N}
A_dev = A:to(device)
t_cpu = time.timeit(function() A:mm(A) end)
t_dev = time.timeit(function() A_dev:mm(A_dev) end)
print(string.format("%dx%d matmul on cpu:    %.4f s", N, N, t_cpu))
print(string.format("%dx%d matmul on %s: %.4f s", N, N, tostring(device), t_dev))
-- %% A tiny product: CPU versus device
a = torch.rand{4, 4}
a_dev = a:to(device)
t_cpu_small = time.timeit(function() a:mm(a) end)
t_dev_small = time.timeit(function() a_dev:mm(a_dev) end)
print(string.format("4x4 matmul on cpu:    %.1f us", t_cpu_small * 1e6))
print(string.format("4x4 matmul on %s: %.1f us", tostring(device), t_dev_small * 1e6))
-- %% What the numbers show
-- On a real GPU the big product is tens of times faster than on the CPU, and
-- the tiny one is not faster at all: launching the work and waiting for it
-- cost more than its 64 multiply-adds. An emulated GPU computes on the CPU,
-- so there both times of each pair measure the same work on the same
-- processor: a ratio of them would only show noise.
if emulated then
  print("Both products ran on the CPU here, so no speed-up is printed. On a real")
  print("GPU, the 2048x2048 product runs many times faster than on the CPU, and")
  print("the 4x4 one is no faster: its cost is the launch and the wait.")
else
  print(string.format("speed-up of the big product:  %.2fx", t_cpu / t_dev))
  print(string.format("speed-up of the tiny product: %.2fx", t_cpu_small / t_dev_small))
end
