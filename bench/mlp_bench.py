# MLP training benchmark (issue 5): 784-256-10, ReLU, CrossEntropyLoss, SGD
# (lr 0.01, momentum 0.9), batch 64. Same workload as mlp_bench.lua.
# Prints "name seconds" lines: mlp_step (median per training step over STEPS
# timed steps after WARMUP untimed ones), mlp_step_mean, and mlp_loss.
# MLP_AMP=1: the forward pass and the loss under torch.autocast (bfloat16 on
# the CPU; float16 on CUDA, with a GradScaler), as PyTorch's AMP recipe.
# Usage: python3 bench/mlp_bench.py [device]     (device: cpu (default), cuda)
import os, sys, time
import torch
from torch import nn

STEPS = int(os.environ.get('MLP_STEPS', '200'))
WARMUP = int(os.environ.get('MLP_WARMUP', '20'))
device = sys.argv[1] if len(sys.argv) > 1 else 'cpu'
sync = torch.cuda.synchronize if device.startswith('cuda') else (lambda: None)

torch.manual_seed(0)
N, BATCH = 6400, 64
X = torch.randn(N, 784).to(device)
Y = torch.randint(0, 10, (N,)).to(device)
model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)).to(device)
loss_fn = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
nbatches = N // BATCH
loss = None
amp = os.environ.get('MLP_AMP') == '1'
dev_type = device.split(':')[0]
scaler = torch.amp.GradScaler('cuda') if amp and dev_type == 'cuda' else None

def step(i):
    global loss
    k = (i % nbatches) * BATCH
    xb, yb = X.narrow(0, k, BATCH), Y.narrow(0, k, BATCH)
    opt.zero_grad()
    if not amp:
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        return
    with torch.autocast(dev_type):
        loss = loss_fn(model(xb), yb)
    if scaler is not None:
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
    else:
        loss.backward()
        opt.step()

for i in range(1, WARMUP + 1):
    step(i)
sync()
times = []
for i in range(1, STEPS + 1):
    t0 = time.perf_counter()
    step(i)
    sync()
    times.append(time.perf_counter() - t0)
times.sort()
print('mlp_step %.9g' % times[(STEPS + 1) // 2 - 1])
print('mlp_step_mean %.9g' % (sum(times) / STEPS))
print('mlp_loss %.6f' % loss.item())
