#!/usr/bin/env bash
# Builds the Debian package gpulab_<version>_<arch>.deb into build-pkg/ (the
# CUDA backend too where nvcc exists: cuBLAS is loaded at run time, so the same
# package runs on machines with or without a GPU). Extra arguments go to cmake.
# Install it with:  sudo apt install ./build-pkg/gpulab_*.deb  then run  gpulab doctor
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build-pkg -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr -DGPULAB_TESTS=OFF "$@" >/dev/null
cmake --build build-pkg -j"$(nproc)"
(cd build-pkg && cpack -G DEB >/dev/null)
ls build-pkg/gpulab_*.deb
