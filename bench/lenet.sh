#!/usr/bin/env bash
# LeNet (d2l 7.6) on the whole Fashion-MNIST, in gpulab (bench/lenet.lua) and in
# PyTorch (bench/lenet.py), the same script with the same seed: both start from
# the same weights and see the same batches, so their lines per epoch track
# each other.
#   accuracy (default): 10 epochs each (EPOCHS), one after the other, on the CPU.
#   speed:   ROUNDS (default 5) alternating one-epoch runs of each, then the
#            ratio of gpulab's examples/sec to PyTorch's per round: median,
#            min and max, with the load average before and after.
# Usage: bench/lenet.sh [accuracy|speed] [GPULAB_BINARY]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mode="${1:-accuracy}"
. "$here/gpulab_binary.sh" "${2:-}"
py="${PYTHON:-python3}"
echo "# machine: nproc=$(nproc), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# torch: $("$py" -c 'import torch; print(torch.__version__, torch.get_num_threads(), "threads")'); gpulab: $bin"
rate() { sed -E 's/.* ([0-9.]+) examples\/sec.*/\1/'; }
if [ "$mode" = speed ]; then
  ratios=()
  for r in $(seq "${ROUNDS:-5}"); do
    g=$(EPOCHS=1 "$bin" "$here/lenet.lua" | rate)
    p=$(EPOCHS=1 "$py" "$here/lenet.py" | rate)
    ratio=$(awk -v g="$g" -v p="$p" 'BEGIN { printf "%.3f", g / p }')
    echo "round $r: gpulab $g, PyTorch $p examples/sec: ${ratio}x (load $(cut -d' ' -f1 /proc/loadavg))"
    ratios+=("$ratio")
  done
  printf '%s\n' "${ratios[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "ratio gpulab/PyTorch: median %.3f, min %.3f, max %.3f over %d rounds\n", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2), a[1], a[NR], NR }'
else
  echo "## gpulab"
  "$bin" "$here/lenet.lua"
  echo "## PyTorch"
  "$py" "$here/lenet.py"
fi
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
