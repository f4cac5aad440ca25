-- gpulab GPU benchmark: the same workloads as gpu_bench.py (issue: the CUDA
-- backend's performance targets). Prints "name value" per line; values are
-- seconds unless the name ends in _gbps. Each workload: a warm-up, then the
-- best of REPEATS timed runs, each bracketed by torch.cuda.synchronize().
-- BENCH_SCALE=small shrinks every size (a smoke run on virtual devices).
local REPEATS = tonumber(os.getenv("BENCH_REPEATS") or "5")
local small = os.getenv("BENCH_SCALE") == "small"
local dev = "cuda:0"
local timing = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/gpu_timing.lua')
local function best(fn) return timing.best(fn, REPEATS) end
local function report(name, v) print(string.format("%s %.9g", name, v)) end

torch.manual_seed(0)
print("# device " .. torch.cuda.get_device_name(0))

-- (1) per-op time of a tiny elementwise op launched from Lua (launch-bound)
local N_OPS = small and 2000 or 100000
local x, y = torch.ones(1, {device = dev}), torch.ones(1, {device = dev})
report("per_op_add_1elem", best(function()
  local z
  for _ = 1, N_OPS do z = x + y end
end) / N_OPS)

-- (2) device copy bandwidth, then add/mul/sum over 2^28 float32 elements
local n = small and (1 << 16) or (1 << 28)
local bytes = n * 4
local a = torch.rand(n, {device = dev})
local b = torch.rand(n, {device = dev})
local out = torch.empty(n, {device = dev})
report("copy_gbps", 2 * bytes / best(function() out:copy_(a) end) / 1e9)
report("add_2e28", best(function() local r = a + b end))
report("mul_2e28", best(function() local r = a * b end))
report("sum_2e28", best(function() local r = a:sum() end))
a, b, out = nil, nil, nil
collectgarbage()
torch.cuda.empty_cache()

-- (2b) host <-> device copies of 2^26 float32 (256 MiB) from ordinary host
-- memory: whether a pinned staging buffer would pay (PyTorch's pinned figure
-- is the ceiling)
local hn = small and (1 << 16) or (1 << 26)
local h = torch.rand(hn)
local g = h:to(dev)
report("h2d_gbps", hn * 4 / best(function() local r = h:to(dev) end) / 1e9)
report("d2h_gbps", hn * 4 / best(function() local r = g:cpu() end) / 1e9)
-- from and into pinned memory, as gpu_bench.py
local hp = h:pin_memory()
report("h2d_pinned_gbps", hn * 4 / best(function() local r = hp:to(dev, {non_blocking = true}) end) / 1e9)
local gp = torch.empty(hn, {pin_memory = true})
report("d2h_pinned_gbps", hn * 4 / best(function() gp:copy_(g, {non_blocking = true}) end) / 1e9)
h, g, hp, gp = nil, nil, nil, nil
collectgarbage()
torch.cuda.empty_cache()

-- (3) matmul: float32 (IEEE), TF32, bfloat16
for _, m in ipairs(small and {64, 128} or {4096, 8192}) do
  local p, q = torch.randn(m, m, {device = dev}), torch.randn(m, m, {device = dev})
  torch.backends.cuda.matmul.allow_tf32 = false
  report("mm_f32_" .. m, best(function() local r = p:mm(q) end))
  torch.backends.cuda.matmul.allow_tf32 = true
  report("mm_tf32_" .. m, best(function() local r = p:mm(q) end))
  torch.backends.cuda.matmul.allow_tf32 = false
  local pb, qb = p:bfloat16(), q:bfloat16()
  report("mm_bf16_" .. m, best(function() local r = pb:mm(qb) end))
  p, q, pb, qb = nil, nil, nil, nil
  collectgarbage()
end

-- (4) d2l 5.6.5: 1000 100x100 matmuls, with and without item() per step
local A, B = torch.randn(100, 100, {device = dev}), torch.randn(100, 100, {device = dev})
local steps = small and 100 or 1000
report("d2l_mm_item_each_step", best(function()
  for _ = 1, steps do local v = A:mm(B):norm():item() end
end))
report("d2l_mm_log_on_device", best(function()
  local log = torch.empty(steps, {device = dev})
  for i = 0, steps - 1 do log[i] = A:mm(B):norm() end
  local host = log:cpu()
end))

-- (5) d2l 5.6.5: a large matmul on the CPU and on the GPU
local L = small and 256 or 4096
local pc, qc = torch.randn(L, L), torch.randn(L, L)
report("d2l_large_mm_cpu", best(function() local r = pc:mm(qc) end))
local pg, qg = pc:to(dev), qc:to(dev)
report("d2l_large_mm_gpu", best(function() local r = pg:mm(qg) end))
