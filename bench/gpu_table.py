"""Turns the outputs of gpu_bench.lua and gpu_bench.py into a Markdown table.
Usage: gpu_table.py GPULAB_OUT TORCH_OUT"""
import sys


def load(path):
    vals, device = {}, "?"
    for line in open(path):
        if line.startswith("# device "):
            device = line[len("# device "):].strip()
        elif line.strip() and not line.startswith("#"):
            k, v = line.split()
            vals[k] = float(v)
    return vals, device


g, gdev = load(sys.argv[1])
t, tdev = load(sys.argv[2])
print(f"device: {gdev} (gpulab) / {tdev} (PyTorch)\n")


def fmt(s):
    return f"{s * 1e6:.2f} us" if s < 1e-3 else f"{s * 1e3:.3f} ms"


print("| workload | gpulab | PyTorch | speed ratio (PyTorch time / gpulab time) | target | met? |")
print("|---|---|---|---|---|---|")


def row(label, key, target, ok=None):
    r = t[key] / g[key]
    met = "-" if ok is None else ("yes" if ok(r) else "**no**")
    print(f"| {label} | {fmt(g[key])} | {fmt(t[key])} | {r:.2f} | {target} | {met} |")


row("tiny add per op, launched from Lua", "per_op_add_1elem", "gpulab time <= 0.5x PyTorch's", lambda r: r >= 2.0)
copy = g["copy_gbps"]
print(f"| device copy bandwidth | {copy:.0f} GB/s | {t['copy_gbps']:.0f} GB/s | "
      f"{copy / t['copy_gbps']:.2f} | (reference for the next rows) | - |")
for op in ("add", "mul"):
    key = f"{op}_2e28"
    gbps = 3 * (1 << 28) * 4 / g[key] / 1e9
    r = t[key] / g[key]
    ok = gbps >= 0.9 * copy and r >= 1.0
    print(f"| {op} 2^28 f32 ({gbps:.0f} GB/s = {gbps / copy:.0%} of copy) | {fmt(g[key])} | {fmt(t[key])} | "
          f"{r:.2f} | >= 90% of copy and >= 1.0 | {'yes' if ok else '**no**'} |")
row("sum 2^28 f32", "sum_2e28", ">= 1.0", lambda r: r >= 1.0)
for d in ("h2d", "d2h"):
    key = f"{d}_gbps"
    if key in g and key in t:
        pinned = t.get(f"{d}_pinned_gbps")
        note = f"PyTorch from pinned memory: {pinned:.1f} GB/s" if pinned else "-"
        print(f"| {d} copy, 2^26 f32 from pageable memory | {g[key]:.1f} GB/s | {t[key]:.1f} GB/s | "
              f"{g[key] / t[key]:.2f} | (reported; {note}) | - |")
    key = f"{d}_pinned_gbps"
    if key in g and key in t:
        r = g[key] / t[key]
        print(f"| {d} copy, 2^26 f32, pinned | {g[key]:.1f} GB/s | {t[key]:.1f} GB/s | {r:.2f} | "
              f">= 0.9 | {'yes' if r >= 0.9 else '**no**'} |")
for key in sorted(k for k in g if k.startswith("mm_")):
    kind, m = key.split("_")[1:]
    row(f"matmul {kind} {m}^2", key, ">= 0.97", lambda r: r >= 0.97)
for key, label in (("d2l_mm_item_each_step", "d2l: 1000 x (100^2 mm + norm + item)"),
                   ("d2l_mm_log_on_device", "d2l: 1000 x (100^2 mm + norm), log on device"),
                   ("d2l_large_mm_cpu", "d2l: large matmul on the CPU"),
                   ("d2l_large_mm_gpu", "d2l: large matmul on the GPU")):
    row(label, key, "(reported)")
print()
print(f"d2l, CPU/GPU for the large matmul: gpulab {g['d2l_large_mm_cpu'] / g['d2l_large_mm_gpu']:.1f}x, "
      f"PyTorch {t['d2l_large_mm_cpu'] / t['d2l_large_mm_gpu']:.1f}x; "
      f"item() every step / log on device: gpulab {g['d2l_mm_item_each_step'] / g['d2l_mm_log_on_device']:.2f}x, "
      f"PyTorch {t['d2l_mm_item_each_step'] / t['d2l_mm_log_on_device']:.2f}x")
