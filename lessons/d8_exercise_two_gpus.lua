-- Dive into Deep Learning, 5.6 GPUs § 5.6.5, exercise 4: Two matmuls on two GPUs vs one GPU
-- %% Setup
-- Work is queued on each device and runs asynchronously, so products
-- launched on two different GPUs can run at the same time, while on one GPU
-- they run one after the other. The timer waits for every device.
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
function machine()
  if not torch.cuda.is_available() then return "no GPU" end
  if torch.cuda.get_device_name(0):find("emulated") then return "emulated GPUs" end
  if torch.cuda.is_virtual(0) then return "slices of one GPU" end
  return "real GPUs"
end
d0, d1 = try_gpu(0), try_gpu(1)
print("machine:", machine(), "| first device:", d0, "| second device:", d1)
-- %% The inputs: one matrix on each device, and a copy of the second on d0
-- Two devices on a real GPU get bigger matrices, so that the products
-- outweigh launch costs; anything involving the CPU stays small.
on_gpus = torch.cuda.device_count() >= 2 and (machine() == "real GPUs" or machine() == "slices of one GPU")
N = on_gpus and 8192 or 1024
P = torch.rand{N, N, device = d0}
Q = torch.rand{N, N, device = d1}
Q_on_d0 = Q:to(d0)
print("P on", P.device, "| Q on", Q.device, "| Q_on_d0 on", Q_on_d0.device)
-- %% Both products on one device, in sequence
t_one = timeit(function() P:mm(P); Q_on_d0:mm(Q_on_d0) end)
print(string.format("two products on %s:             %.4f s", tostring(d0), t_one))
-- %% One product on each device
t_two = timeit(function() P:mm(P); Q:mm(Q) end)
print(string.format("one product on each of %s, %s: %.4f s", tostring(d0), tostring(d1), t_two))
print(string.format("speed-up: %.2fx", t_one / t_two))
-- %% Same answers either way (up to float32 rounding)
ref = Q_on_d0:mm(Q_on_d0)
print("results match:", (Q:mm(Q):to(d0) - ref):abs():max():item() < 1e-4 * ref:abs():max():item())
-- %% What the numbers show
-- With two real GPUs the second time should be close to half the first: each
-- GPU does one product and they overlap, so scaling is nearly linear.
kind = machine()
if torch.cuda.device_count() < 2 and kind ~= "no GPU" then
  print("Only one GPU: try_gpu(1) fell back to the CPU, so this compared GPU+CPU")
  print("with the GPU alone, not two GPUs with one.")
elseif kind == "no GPU" then
  print("No GPU: both sides ran on the CPU, one product after the other.")
elseif kind == "emulated GPUs" then
  print("The GPUs here are emulated in host memory: each runs its product on the")
  print("CPU as soon as it is asked, one after the other, so two devices cannot")
  print("beat one here. The parallel speed-up needs two real GPUs.")
elseif kind == "slices of one GPU" then
  print("cuda:0 and cuda:1 are two slices of one physical GPU: both products share")
  print("its compute units, so they cannot run twice as fast. The parallel")
  print("speed-up needs two real GPUs.")
elseif t_one / t_two > 1.6 then
  print("Two GPUs were nearly twice as fast: the products ran in parallel.")
else
  print("Two GPUs were not much faster: check that the GPUs are idle, or raise N.")
end
