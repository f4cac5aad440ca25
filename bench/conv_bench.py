# Conv2d forward + backward: the same workload as conv_bench.lua, in PyTorch.
# Usage: python3 bench/conv_bench.py [device]     (needs torch)
import os, sys, time
import torch
import torch.nn.functional as F

device = sys.argv[1] if len(sys.argv) > 1 else 'cpu'
sync = torch.cuda.synchronize if device.startswith('cuda') else (lambda: None)
cases = [
    ('lenet_conv1', (256, 1, 28, 28), (6, 1, 5, 5), 2, 20),
    ('lenet_conv2', (256, 6, 14, 14), (16, 6, 5, 5), 0, 20),
    ('resnet_block_conv', (32, 64, 56, 56), (64, 64, 3, 3), 1, 5),
]
torch.manual_seed(0)
for name, xs, ws, pad, reps in cases:
    reps = int(os.environ.get('REPS', reps))
    x = torch.randn(xs, device=device, requires_grad=True)
    w = torch.randn(ws, device=device, requires_grad=True)
    b = torch.randn(ws[0], device=device, requires_grad=True)
    g = None

    def step():
        global g
        x.grad = w.grad = b.grad = None
        y = F.conv2d(x, w, b, padding=pad)
        g = torch.ones_like(y) if g is None else g
        y.backward(g)

    for _ in range(2):
        step()
    sync()
    t = []
    for _ in range(reps):
        t0 = time.perf_counter()
        step()
        sync()
        t.append(time.perf_counter() - t0)
    t.sort()
    print('%s %.6g %.6g %.6g' % (name, t[(reps - 1) // 2], t[0], t[-1]))
