"""PyTorch's side of gpu_probe.lua: the same workloads, timed the same three ways."""
import os

import torch

import gpu_timing

dev = "cuda:0"
sync = torch.cuda.synchronize


def best(fn):
    return gpu_timing.best(fn, 5, sync)


def events(fn):
    fn(); sync()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(20):
        fn()
    e.record()
    e.synchronize()
    return s.elapsed_time(e) / 1000 / 20


def probe(name, fresh, into):
    print(f"{name}_fresh {best(fresh):.9g}")
    print(f"{name}_out {best(into):.9g}")
    print(f"{name}_events {events(fresh):.9g}")


torch.manual_seed(0)
small = os.environ.get("BENCH_SCALE") == "small"
n = (1 << 16) if small else (1 << 28)
a, b = torch.rand(n, device=dev), torch.rand(n, device=dev)
r = torch.empty(n, device=dev)
probe("add_2e28", lambda: a + b, lambda: torch.add(a, b, out=r))
del a, b, r
torch.cuda.empty_cache()

m = 64 if small else 4096
p, q = torch.randn(m, m, device=dev), torch.randn(m, m, device=dev)
c = torch.empty(m, m, device=dev)
torch.backends.cuda.matmul.allow_tf32 = False
probe("mm_f32_4096", lambda: p.mm(q), lambda: torch.mm(p, q, out=c))
torch.backends.cuda.matmul.allow_tf32 = True
probe("mm_tf32_4096", lambda: p.mm(q), lambda: torch.mm(p, q, out=c))
torch.backends.cuda.matmul.allow_tf32 = False
pb, qb, cb = p.bfloat16(), q.bfloat16(), c.bfloat16()
probe("mm_bf16_4096", lambda: pb.mm(qb), lambda: torch.mm(pb, qb, out=cb))
