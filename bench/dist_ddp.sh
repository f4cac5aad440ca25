#!/usr/bin/env bash
# DDP MLP training step, 2 ranks over gloo: gpulab (bench/dist_ddp_step.lua under
# `gpulab run`) against PyTorch's own DDP and gloo (bench/dist_ddp_step.py under
# `python3 -m torch.distributed.run`), alternately ROUNDS times (default 6), one
# thread per rank (OMP_NUM_THREADS=1: 2 ranks on a 2-core machine). Each run's
# figure is rank 0's median over 30 steps; the table gives the median over the
# rounds, the min–max spread, and the per-round ratio PyTorch/gpulab (> 1: gpulab
# faster), with the load average before and after (the runs share the machine).
# Usage: bench/dist_ddp.sh [GPULAB_BINARY]      ROUNDS=N, PYTHON=python3 with torch
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/gpulab_binary.sh" "${1:-}"
py="${PYTHON:-python3}"
rounds="${ROUNDS:-6}"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
echo "# machine: nproc=$(nproc), cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "# torch: $("$py" -c 'import torch; print(torch.__version__)'); gpulab: $bin; rounds: $rounds"
gl=() pt=()
port=29790
for r in $(seq "$rounds"); do
  port=$((port + 2))
  g=$(OMP_NUM_THREADS=1 "$bin" run --nproc-per-node 2 --master-port $port "$here/dist_ddp_step.lua" |
      sed -n 's/^\[rank0\]: DDP MLP step: \([0-9.]*\) ms.*/\1/p' || true)
  p=$(OMP_NUM_THREADS=1 "$py" -m torch.distributed.run --nproc-per-node 2 --master-port $((port + 1)) \
      "$here/dist_ddp_step.py" 2>/dev/null | sed -n 's/^DDP MLP step: \([0-9.]*\) ms.*/\1/p' || true)
  # torchrun sometimes exits non-zero after printing its figure; a round
  # without both figures is skipped, not fatal.
  if [[ -z $g || -z $p ]]; then echo "round $r: skipped (gpulab '$g', PyTorch '$p')"; continue; fi
  echo "round $r: gpulab $g ms, PyTorch $p ms"
  gl+=("$g") pt+=("$p")
done
"$py" - "$load0" "$(cut -d' ' -f1-3 /proc/loadavg)" "${gl[*]}" "${pt[*]}" <<'PY'
import statistics, sys
l0, l1, g, p = sys.argv[1], sys.argv[2], [float(v) for v in sys.argv[3].split()], [float(v) for v in sys.argv[4].split()]
r = [b / a for a, b in zip(g, p)]
f = lambda v: "%.1f (%.1f–%.1f)" % (statistics.median(v), min(v), max(v))
print()
print("| | gpulab ms/step | PyTorch ms/step | ratio PyTorch/gpulab | load average before → after |")
print("|---|---|---|---|---|")
print("| DDP MLP step, 2 ranks | %s | %s | %s | %s → %s |" % (f(g), f(p), "%.2f (%.2f–%.2f)" % (statistics.median(r), min(r), max(r)), l0, l1))
PY
