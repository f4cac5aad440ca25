"""The timing gpu_bench.py and gpu_probe.py share (gpu_timing.lua is gpulab's
side): best(fn, repeats, sync) runs fn once to warm up, then returns the best
of `repeats` timed runs, each bracketed by sync()."""
import time


def best(fn, repeats, sync):
    fn(); sync()
    b = float("inf")
    for _ in range(repeats):
        sync()
        t0 = time.perf_counter(); fn(); sync()
        b = min(b, time.perf_counter() - t0)
    return b
