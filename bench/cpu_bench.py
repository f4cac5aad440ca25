"""PyTorch CPU benchmark: same workloads as cpu_bench.lua. Prints "name seconds" per line.
Each workload: one warm-up call, then best of REPEATS timed calls (or their mean: BENCH_STAT)."""
import os
import time

import torch

REPEATS = int(os.environ.get("BENCH_REPEATS", "5"))
clock = time.perf_counter


# BENCH_STAT=mean: the mean time of the calls made in at least BENCH_SECONDS
# (and at least REPEATS calls) instead of the best call: beside a busy process,
# the best of a few short calls is the luck of the scheduler, and the mean is
# what a loop gets (bench/run.sh's neighbour configuration).
MEAN = os.environ.get("BENCH_STAT", "best") == "mean"
SECONDS = float(os.environ.get("BENCH_SECONDS", "0.5"))


def best(fn):
    fn()  # warm-up
    if MEAN:
        n, t0 = 0, clock()
        while n < REPEATS or clock() - t0 < SECONDS:
            fn(); n += 1
        return (clock() - t0) / n
    b = float("inf")
    for _ in range(REPEATS):
        t0 = clock(); fn(); t = clock() - t0
        b = min(b, t)
    return b


def report(name, s):
    print(f"{name} {s:.9g}")


torch.manual_seed(0)

# (1) per-op overhead: 1-element add, reported per op
N_OPS = 100000
x, y = torch.ones(1), torch.ones(1)


def per_op():
    for _ in range(N_OPS):
        z = x + y


report("per_op_add_1elem", best(per_op) / N_OPS)

# (2) 1000 x (100x100 matmul + norm + item)
a, b = torch.randn(100, 100), torch.randn(100, 100)


def small():
    s = 0.0
    for _ in range(1000):
        s += a.mm(b).norm().item()


report("small_mm_norm_item_x1000", best(small))

# (2b) 100x100 matmul, reported per product
def mm100():
    for _ in range(200):
        a.mm(b)


report("matmul_100", best(mm100) / 200)

# (3) float32 matmul 1024^2 and 2048^2
for n in (1024, 2048):
    p, q = torch.randn(n, n), torch.randn(n, n)
    report(f"matmul_{n}", best(lambda: p.mm(q)))

# (3b) int64 matmul 512^2 (no BLAS: gpulab's own loop)
pi, qi = torch.randint(0, 5, (512, 512)), torch.randint(0, 5, (512, 512))
report("matmul_int64_512", best(lambda: pi.mm(qi)))

# (4) add over 1e7 float32 elements
u, v = torch.randn(10_000_000), torch.randn(10_000_000)
report("add_1e7", best(lambda: u + v))

# (5) sum over 1e7 float32 elements
report("sum_1e7", best(lambda: u.sum()))
