-- all_reduce bandwidth between the ranks of `gpulab run` (gloo over loopback),
-- float32 tensors of 1 MB to 256 MB; the same measurement as
-- bench/dist_allreduce.py for PyTorch's gloo:
--   gpulab run --nproc-per-node 2 bench/dist_allreduce.lua
--   torchrun --nproc-per-node 2 bench/dist_allreduce.py
-- Prints, on rank 0: size, best time of 5, and the bus bandwidth (2(n-1)/n * bytes / time).
local dist = torch.distributed
dist.init_process_group{backend = 'gloo'}
local rank, world = dist.get_rank(), dist.get_world_size()
for _, mb in ipairs({1, 4, 16, 64, 256}) do
  local x = torch.ones(mb * 1024 * 1024 // 4)
  dist.all_reduce(x)  -- warm-up
  local best = math.huge
  for _ = 1, 5 do
    dist.barrier()
    local t0 = time.perf_counter()
    dist.all_reduce(x)
    best = math.min(best, time.perf_counter() - t0)
  end
  local busbw = 2 * (world - 1) / world * mb / 1024 / best
  if rank == 0 then print(('%4d MB  %8.2f ms  %6.2f GB/s'):format(mb, best * 1000, busbw)) end
end
dist.destroy_process_group()
