#!/usr/bin/env bash
# Builds with AddressSanitizer + UndefinedBehaviorSanitizer (CPU and virtual
# devices) into build-asan/ and runs every test there; any report fails it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPULAB_SANITIZE=ON -DGPULAB_CUDA=OFF >/dev/null
cmake --build build-asan -j"$(nproc)"
cd build-asan
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
# fontconfig (under cairo) keeps its caches until exit: tests/lsan.supp
export LSAN_OPTIONS="suppressions=$PWD/../tests/lsan.supp"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --output-on-failure -j"$(nproc)"
