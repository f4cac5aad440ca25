#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test through ctest.
# GPU tests decide at run time and say when they are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
scripts/build.sh
cd build
ctest --output-on-failure -j"$(nproc)"
