#!/usr/bin/env bash
# Runs gpu_bench.lua (gpulab) and gpu_bench.py (PyTorch) on the same GPU, one
# after the other, and prints a Markdown table of the figures and their ratios
# against the CUDA backend's targets.
# Usage: bench/gpu.sh [GPULAB_BINARY]   (BENCH_REPEATS, BENCH_SCALE=small pass through)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="${1:-$here/../build/gpulab}"
py="${PYTHON:-python3}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT

"$bin" "$here/gpu_bench.lua" > "$tmp/gpulab.txt"
"$py" "$here/gpu_bench.py" > "$tmp/torch.txt"
echo "# torch $("$py" -c 'import torch; print(torch.__version__)')"
"$py" "$here/gpu_table.py" "$tmp/gpulab.txt" "$tmp/torch.txt"
