-- The timing gpu_bench.lua and gpu_probe.lua share (gpu_timing.py is
-- PyTorch's side): best(fn, repeats) runs fn once to warm up, then returns the
-- best of `repeats` timed runs, each bracketed by torch.cuda.synchronize().
local M = {}
local sync = torch.cuda.synchronize
local clock = time.perf_counter

function M.best(fn, repeats)
  fn(); sync()
  local b = math.huge
  for _ = 1, repeats do
    sync()
    local t0 = clock(); fn(); sync()
    b = math.min(b, clock() - t0)
  end
  return b
end

return M
