# PyTorch's side of bench/dist_ddp_step.lua (needs torch):
#   torchrun --nproc-per-node 2 bench/dist_ddp_step.py
import time
import torch
import torch.distributed as dist
import torch.nn as nn

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
ddp = nn.parallel.DistributedDataParallel(model)
opt = torch.optim.SGD(ddp.parameters(), lr=0.01)
x, y = torch.randn(128, 784), torch.randint(0, 10, (128,))
loss_fn = nn.CrossEntropyLoss()
times = []
for i in range(35):
    t0 = time.perf_counter()
    opt.zero_grad()
    loss_fn(ddp(x), y).backward()
    opt.step()
    if i >= 5:
        times.append(time.perf_counter() - t0)
times.sort()
if rank == 0:
    print("DDP MLP step: %.2f ms (median of %d)" % (times[len(times) // 2] * 1000, len(times)))
dist.destroy_process_group()
