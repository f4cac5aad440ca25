-- Dive into Deep Learning, 5.6 GPUs § 5.6.5, exercise 1: A big and a small matmul, CPU vs GPU
-- %% Timing GPU work honestly
-- GPU work is queued: a call returns before the GPU has finished it. A timer
-- must wait for the devices (torch.cuda.synchronize) before it starts and
-- before it stops, or it only measures how long queuing took. timeit also
-- runs f once untimed (a warm-up, so one-time setup is not counted) and
-- keeps the best of three runs.
function sync()
  for i = 0, torch.cuda.device_count() - 1 do torch.cuda.synchronize(i) end
end
function timeit(f)
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
-- %% What kind of machine is this?
-- No GPU; GPUs emulated in host memory (gpulab --virtual-gpus without a
-- real GPU); slices of one real GPU (--virtual-gpus on a GPU machine); or
-- real GPUs. The conclusions below depend on it.
function machine()
  if not torch.cuda.is_available() then return "no GPU" end
  if torch.cuda.get_device_name(0):find("emulated") then return "emulated GPUs" end
  if torch.cuda.is_virtual(0) then return "slices of one GPU" end
  return "real GPUs"
end
device = try_gpu()
print("machine:", machine(), "| device under test:", device)
-- %% A big product: CPU versus device
-- 2048 x 2048 matrices: about 17 billion floating-point operations.
N = 2048
A = torch.rand{N, N}
A_dev = A:to(device)
t_cpu = timeit(function() A:mm(A) end)
t_dev = timeit(function() A_dev:mm(A_dev) end)
print(string.format("%dx%d matmul on cpu:    %.4f s", N, N, t_cpu))
print(string.format("%dx%d matmul on %s: %.4f s", N, N, tostring(device), t_dev))
print(string.format("speed-up: %.2fx", t_cpu / t_dev))
-- %% A tiny product: CPU versus device
a = torch.rand{4, 4}
a_dev = a:to(device)
t_cpu_small = timeit(function() a:mm(a) end)
t_dev_small = timeit(function() a_dev:mm(a_dev) end)
print(string.format("4x4 matmul on cpu:    %.1f us", t_cpu_small * 1e6))
print(string.format("4x4 matmul on %s: %.1f us", tostring(device), t_dev_small * 1e6))
print(string.format("speed-up: %.2fx", t_cpu_small / t_dev_small))
-- %% What the numbers show
-- On a real GPU the big product is many times faster than on the CPU, and the
-- tiny one is not: launching the work and waiting for it cost more than the
-- 64 multiply-adds.
kind = machine()
if kind == "no GPU" or kind == "emulated GPUs" then
  print("Here both products ran on the CPU (" .. kind .. "), so there is no speed-up")
  print("to see: any difference between the two times is noise.")
elseif t_cpu / t_dev > 2 then
  print("The GPU ran the big product much faster than the CPU.")
else
  print("The GPU was not much faster on the big product: try a larger N.")
end
if kind == "real GPUs" or kind == "slices of one GPU" then
  if t_dev_small >= t_cpu_small then
    print("The tiny product was no faster on the GPU: its cost is launch and wait.")
  else
    print("The tiny product was faster on the GPU, but both times are tiny.")
  end
end
