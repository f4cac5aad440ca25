-- Latency of a 4-byte all_reduce between 2 ranks over gloo (200 after 20 warm-up),
-- the hand-off cost that dominates bench/dist_ddp.sh on a loaded machine:
--   gpulab run --nproc-per-node 2 bench/dist_latency.lua   (bench/dist_latency.py: PyTorch's)
local dist = torch.distributed
dist.init_process_group{backend = 'gloo'}
local t = torch.ones(1)
local T = {}
for i = 1, 220 do
  local t0 = time.perf_counter(); dist.all_reduce(t); if i > 20 then T[#T+1] = time.perf_counter() - t0 end
end
table.sort(T)
if dist.get_rank() == 0 then print(('gpulab 4-byte all_reduce: median %.3f ms, p90 %.3f ms'):format(T[#T//2]*1000, T[#T*9//10]*1000)) end
dist.destroy_process_group()
