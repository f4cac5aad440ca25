#!/usr/bin/env bash
# LeNet (d2l 7.6), 10 epochs on the whole Fashion-MNIST, gpulab's lesson e4_lenet
# (on cuda:0: a GPU where there is one, else an emulated one on the CPU) and
# PyTorch's same script on the CPU (bench/lenet.py), one after the other, one run
# each: d2l's line per epoch from both, the machine's load before and after.
# Usage: bench/lenet.sh [GPULAB_BINARY]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/gpulab_binary.sh" "${1:-}"
py="${PYTHON:-python3}"
echo "# machine: nproc=$(nproc), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# torch: $("$py" -c 'import torch; print(torch.__version__, torch.get_num_threads(), "threads")'); gpulab: $bin"
echo "## gpulab"
"$bin" lesson e4_lenet --quiet | grep -E '^(training on|epoch )'
echo "## PyTorch"
"$py" "$here/lenet.py"
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
