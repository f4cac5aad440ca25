-- gpulab CPU benchmark: same workloads as cpu_bench.py. Prints "name seconds" per line.
-- Each workload: one warm-up call, then best of REPEATS timed calls (or their mean: BENCH_STAT).
local REPEATS = tonumber(os.getenv("BENCH_REPEATS") or "5")
local clock = time.perf_counter

-- BENCH_STAT=mean: the mean time of the calls made in at least BENCH_SECONDS
-- (and at least REPEATS calls), as in cpu_bench.py.
local MEAN = os.getenv("BENCH_STAT") == "mean"
local SECONDS = tonumber(os.getenv("BENCH_SECONDS") or "0.5")

local function best(fn)
  fn() -- warm-up
  if MEAN then
    local n, t0 = 0, clock()
    while n < REPEATS or clock() - t0 < SECONDS do
      fn(); n = n + 1
    end
    return (clock() - t0) / n
  end
  local b = math.huge
  for _ = 1, REPEATS do
    local t0 = clock(); fn(); local t = clock() - t0
    if t < b then b = t end
  end
  return b
end

local function report(name, s) print(string.format("%s %.9g", name, s)) end

torch.manual_seed(0)

-- (1) per-op overhead: 1-element add, reported per op
local N_OPS = 100000
local x, y = torch.ones(1), torch.ones(1)
report("per_op_add_1elem", best(function()
  local z
  for _ = 1, N_OPS do z = x + y end
end) / N_OPS)

-- (2) 1000 x (100x100 matmul + norm + item)
local a, b = torch.randn(100, 100), torch.randn(100, 100)
report("small_mm_norm_item_x1000", best(function()
  local s = 0
  for _ = 1, 1000 do s = s + a:mm(b):norm():item() end
end))

-- (2b) 100x100 matmul, reported per product
report("matmul_100", best(function()
  for _ = 1, 200 do local r = a:mm(b) end
end) / 200)

-- (3) float32 matmul 1024^2 and 2048^2
for _, n in ipairs({1024, 2048}) do
  local p, q = torch.randn(n, n), torch.randn(n, n)
  report("matmul_" .. n, best(function() local r = p:mm(q) end))
end

-- (3b) int64 matmul 512^2 (no BLAS: gpulab's own loop, Note [Integer products by rows])
do
  local p, q = torch.randint(0, 5, {512, 512}), torch.randint(0, 5, {512, 512})
  report("matmul_int64_512", best(function() local r = p:mm(q) end))
end

-- (4) add over 1e7 float32 elements
local u, v = torch.randn(10000000), torch.randn(10000000)
report("add_1e7", best(function() local r = u + v end))

-- (5) sum over 1e7 float32 elements
report("sum_1e7", best(function() local r = u:sum() end))
