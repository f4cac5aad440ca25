#!/usr/bin/env bash
# Run the gpulab and PyTorch CPU benchmarks on this machine and print a Markdown table.
# Usage: bench/run.sh [GPULAB_BINARY]   (default: build/gpulab, then gpulab on PATH)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/gpulab_binary.sh" "${1:-}"
py="${PYTHON:-python3}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT

# Both sides see the same, unchanged environment (OPENBLAS_*, OMP_* as inherited).
echo "# machine: nproc=$(nproc), cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "# env: OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset} OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-unset} OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}"
echo "# torch: $("$py" -c 'import torch; print(torch.__version__, "get_num_threads() =", torch.get_num_threads())')"
echo "# gpulab: $bin (OpenMP + OpenBLAS; default thread count = OpenMP/OpenBLAS default, i.e. nproc unless OMP_NUM_THREADS/OPENBLAS_NUM_THREADS set)"

"$bin" "$here/cpu_bench.lua" > "$tmp/gpulab.txt"
"$py" "$here/cpu_bench.py" > "$tmp/torch.txt"

# Start-up: best of 10 wall-clock runs of each command (after one untimed warm run).
"$py" - "$bin" "$py" >> "$tmp/startup.txt" <<'PY'
import subprocess, sys, time
gl, py = sys.argv[1], sys.argv[2]
def best(cmd, n=10):
    subprocess.run(cmd, check=True)
    b = float("inf")
    for _ in range(n):
        t0 = time.perf_counter(); subprocess.run(cmd, check=True); b = min(b, time.perf_counter() - t0)
    return b
print("startup", best([gl, "-e", ""]), best([py, "-c", "import torch"]))
PY

"$py" - "$tmp" <<'PY'
import sys
d = sys.argv[1]
def load(f):
    return {l.split()[0]: float(l.split()[1]) for l in open(f"{d}/{f}") if l.strip()}
g, t = load("gpulab.txt"), load("torch.txt")
_, gs, ts = open(f"{d}/startup.txt").read().split()
rows = [
    ("per-op overhead (1-elem add, per op)", "per_op_add_1elem", "ratio >= 1", 1.0),
    ("1000 x (100x100 mm + norm + item)", "small_mm_norm_item_x1000", "(none; ratio >= 1 is the per-op goal)", None),
    ("matmul 1024^2 f32", "matmul_1024", "ratio >= 0.9", 0.9),
    ("matmul 2048^2 f32", "matmul_2048", "ratio >= 0.9", 0.9),
    ("add 1e7 f32", "add_1e7", "ratio >= 1.0", 1.0),
    ("sum 1e7 f32", "sum_1e7", "ratio >= 1.0", 1.0),
]
def fmt(s):
    return f"{s*1e6:.3f} us" if s < 1e-3 else f"{s*1e3:.3f} ms"
print()
print("| workload | gpulab | PyTorch | ratio (PyTorch/gpulab) | target | met? |")
print("|---|---|---|---|---|---|")
for label, key, target, thr in rows:
    r = t[key] / g[key]
    met = "-" if thr is None else ("yes" if r >= thr else "**no**")
    print(f"| {label} | {fmt(g[key])} | {fmt(t[key])} | {r:.2f} | {target} | {met} |")
gs, ts = float(gs), float(ts)
print(f"| start-up (`gpulab -e ''` vs `python3 -c 'import torch'`) | {fmt(gs)} | {fmt(ts)} | {ts/gs:.2f} | gpulab < 50 ms | {'yes' if gs < 0.05 else '**no**'} |")
PY
