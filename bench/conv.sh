#!/usr/bin/env bash
# Conv2d forward+backward (issue 17): gpulab's oneDNN path (GPULAB_CPU_CONV=onednn),
# its im2col + OpenBLAS path (=im2col), its default choice, and PyTorch, one run each on this machine, then
# a Markdown table of the median time per iteration with the spread (min-max).
# Usage: bench/conv.sh [GPULAB_BINARY] [device]      REPS=N overrides the repeats
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/gpulab_binary.sh" "${1:-}"
dev="${2:-cpu}"
py="${PYTHON:-python3}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
echo "# machine: nproc=$(nproc), cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# torch: $("$py" -c 'import torch; print(torch.__version__, torch.get_num_threads(), "threads")'); gpulab: $bin; device: $dev"
GPULAB_CPU_CONV=onednn "$bin" "$here/conv_bench.lua" "$dev" > "$tmp/dnnl.txt"
"$bin" "$here/conv_bench.lua" "$dev" > "$tmp/default.txt"
[[ "$dev" == cpu ]] && GPULAB_CPU_CONV=im2col "$bin" "$here/conv_bench.lua" "$dev" > "$tmp/im2col.txt"
"$py" "$here/conv_bench.py" "$dev" > "$tmp/torch.txt"
"$py" - "$tmp" <<'PY'
import os, sys
d = sys.argv[1]
def read(f):
    p = os.path.join(d, f)
    return {l.split()[0]: [float(v) for v in l.split()[1:]] for l in open(p)} if os.path.exists(p) else {}
gl, im, df, pt = read('dnnl.txt'), read('im2col.txt'), read('default.txt'), read('torch.txt')
fmt = lambda r: '%.2f (%.2f-%.2f)' % tuple(v * 1e3 for v in r) if r else '-'
print('| conv fwd+bwd | gpulab oneDNN ms | gpulab im2col+BLAS ms | gpulab default ms | PyTorch ms | PyTorch/oneDNN | PyTorch/im2col | PyTorch/default |')
print('|---|---|---|---|---|---|---|---|')
for k in pt:
    g, i, f, t = gl.get(k), im.get(k), df.get(k), pt[k]
    ratio = lambda r: '%.2f' % (t[0] / r[0]) if r else '-'
    print('| %s | %s | %s | %s | %s | %s | %s | %s |' % (k, fmt(g), fmt(i), fmt(f), fmt(t), ratio(g), ratio(i), ratio(f)))
PY
