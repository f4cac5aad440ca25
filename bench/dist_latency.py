# PyTorch's side of bench/dist_latency.lua (needs torch):
#   python3 -m torch.distributed.run --nproc-per-node 2 bench/dist_latency.py
import time, torch, torch.distributed as dist
dist.init_process_group('gloo')
t = torch.ones(1); T=[]
for i in range(220):
    t0=time.perf_counter(); dist.all_reduce(t)
    if i>=20: T.append(time.perf_counter()-t0)
T.sort()
if dist.get_rank()==0: print('torch 4-byte all_reduce: median %.3f ms, p90 %.3f ms'%(T[len(T)//2]*1000, T[len(T)*9//10]*1000))
dist.destroy_process_group()
