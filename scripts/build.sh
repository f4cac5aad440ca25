#!/usr/bin/env bash
# Configures and builds gpulab into build/ (the CUDA backend too when nvcc exists).
set -euo pipefail
cd "$(dirname "$0")/.."
"$(dirname "$0")/setup.sh"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j"$(nproc)"
