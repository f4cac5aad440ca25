-- Where the time of gpu_bench's slow rows goes (issue 12): each workload timed
-- three ways, the same as gpu_probe.py. "fresh" makes a new result each call
-- (as gpu_bench does), "out" writes into one result made beforehand (no
-- allocation), and "events" is the GPU's own time per call, from CUDA events
-- around 20 fresh calls. fresh > out points at the allocator or the host;
-- events > PyTorch's points at the kernel. Prints "name seconds" per line.
local dev = "cuda:0"
local sync = torch.cuda.synchronize
local timing = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/gpu_timing.lua')
local function best(fn) return timing.best(fn, 5) end
local function events(fn)
  fn(); sync()
  local s, e = torch.cuda.Event({enable_timing = true}), torch.cuda.Event({enable_timing = true})
  s:record()
  for _ = 1, 20 do fn() end
  e:record()
  e:synchronize()
  return s:elapsed_time(e) / 1000 / 20
end
local function probe(name, fresh, into)
  print(string.format("%s_fresh %.9g", name, best(fresh)))
  print(string.format("%s_out %.9g", name, best(into)))
  print(string.format("%s_events %.9g", name, events(fresh)))
end

torch.manual_seed(0)
local small = os.getenv("BENCH_SCALE") == "small"  -- a smoke run on virtual devices
local n = small and (1 << 16) or (1 << 28)
local a, b = torch.rand(n, {device = dev}), torch.rand(n, {device = dev})
local r = torch.empty(n, {device = dev})
probe("add_2e28", function() local z = a + b end, function() torch.add(a, b, {out = r}) end)
a, b, r = nil, nil, nil
collectgarbage()
torch.cuda.empty_cache()

local m = small and 64 or 4096
local p, q = torch.randn(m, m, {device = dev}), torch.randn(m, m, {device = dev})
local c = torch.empty(m, m, {device = dev})
torch.backends.cuda.matmul.allow_tf32 = false
probe("mm_f32_4096", function() local z = p:mm(q) end, function() torch.mm(p, q, {out = c}) end)
torch.backends.cuda.matmul.allow_tf32 = true
probe("mm_tf32_4096", function() local z = p:mm(q) end, function() torch.mm(p, q, {out = c}) end)
torch.backends.cuda.matmul.allow_tf32 = false
local pb, qb, cb = p:bfloat16(), q:bfloat16(), c:bfloat16()
probe("mm_bf16_4096", function() local z = pb:mm(qb) end, function() torch.mm(pb, qb, {out = cb}) end)
