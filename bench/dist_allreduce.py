# PyTorch's side of bench/dist_allreduce.lua (needs torch):
#   torchrun --nproc-per-node 2 bench/dist_allreduce.py
import time
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
rank, world = dist.get_rank(), dist.get_world_size()
for mb in (1, 4, 16, 64, 256):
    x = torch.ones(mb * 1024 * 1024 // 4)
    dist.all_reduce(x)
    best = float("inf")
    for _ in range(5):
        dist.barrier()
        t0 = time.perf_counter()
        dist.all_reduce(x)
        best = min(best, time.perf_counter() - t0)
    busbw = 2 * (world - 1) / world * mb / 1024 / best
    if rank == 0:
        print("%4d MB  %8.2f ms  %6.2f GB/s" % (mb, best * 1000, busbw))
dist.destroy_process_group()
