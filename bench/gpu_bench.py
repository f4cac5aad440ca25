"""PyTorch GPU benchmark: the same workloads as gpu_bench.lua, line for line.
Prints "name value" per line (seconds, or GB/s for names ending in _gbps).
BENCH_SCALE=small shrinks every size; BENCH_DEVICE=cpu runs it without a GPU
(a smoke run of the script itself, not a measurement)."""
import os

import torch

import gpu_timing

REPEATS = int(os.environ.get("BENCH_REPEATS", "5"))
small = os.environ.get("BENCH_SCALE") == "small"
dev = os.environ.get("BENCH_DEVICE", "cuda:0")
on_gpu = dev.startswith("cuda")
sync = torch.cuda.synchronize if on_gpu else (lambda: None)


def best(fn):
    return gpu_timing.best(fn, REPEATS, sync)


def report(name, v):
    print(f"{name} {v:.9g}")


torch.manual_seed(0)
print("# device " + (torch.cuda.get_device_name(0) if on_gpu else "cpu"))

N_OPS = 2000 if small else 100000
x, y = torch.ones(1, device=dev), torch.ones(1, device=dev)


def tiny():
    for _ in range(N_OPS):
        z = x + y


report("per_op_add_1elem", best(tiny) / N_OPS)

n = (1 << 16) if small else (1 << 28)
nbytes = n * 4
a = torch.rand(n, device=dev)
b = torch.rand(n, device=dev)
out = torch.empty(n, device=dev)
report("copy_gbps", 2 * nbytes / best(lambda: out.copy_(a)) / 1e9)
report("add_2e28", best(lambda: a + b))
report("mul_2e28", best(lambda: a * b))
report("sum_2e28", best(lambda: a.sum()))
del a, b, out
if on_gpu:
    torch.cuda.empty_cache()

hn = (1 << 16) if small else (1 << 26)
h = torch.rand(hn)
g = h.to(dev)
report("h2d_gbps", hn * 4 / best(lambda: h.to(dev)) / 1e9)
report("d2h_gbps", hn * 4 / best(lambda: g.cpu()) / 1e9)
if on_gpu:
    hp = h.pin_memory()
    report("h2d_pinned_gbps", hn * 4 / best(lambda: hp.to(dev, non_blocking=True)) / 1e9)
    gp = torch.empty(hn, pin_memory=True)
    report("d2h_pinned_gbps", hn * 4 / best(lambda: gp.copy_(g, non_blocking=True)) / 1e9)
    del hp, gp
del h, g
if on_gpu:
    torch.cuda.empty_cache()

for m in ((64, 128) if small else (4096, 8192)):
    p, q = torch.randn(m, m, device=dev), torch.randn(m, m, device=dev)
    torch.backends.cuda.matmul.allow_tf32 = False
    report(f"mm_f32_{m}", best(lambda: p.mm(q)))
    torch.backends.cuda.matmul.allow_tf32 = True
    report(f"mm_tf32_{m}", best(lambda: p.mm(q)))
    torch.backends.cuda.matmul.allow_tf32 = False
    pb, qb = p.bfloat16(), q.bfloat16()
    report(f"mm_bf16_{m}", best(lambda: pb.mm(qb)))
    del p, q, pb, qb

A, B = torch.randn(100, 100, device=dev), torch.randn(100, 100, device=dev)
steps = 100 if small else 1000


def item_each_step():
    for _ in range(steps):
        v = A.mm(B).norm().item()


def log_on_device():
    log = torch.empty(steps, device=dev)
    for i in range(steps):
        log[i] = A.mm(B).norm()
    host = log.cpu()


report("d2l_mm_item_each_step", best(item_each_step))
report("d2l_mm_log_on_device", best(log_on_device))

L = 256 if small else 4096
pc, qc = torch.randn(L, L), torch.randn(L, L)
report("d2l_large_mm_cpu", best(lambda: pc.mm(qc)))
pg, qg = pc.to(dev), qc.to(dev)
report("d2l_large_mm_gpu", best(lambda: pg.mm(qg)))
