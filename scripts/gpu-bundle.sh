#!/usr/bin/env bash
# Packs a CUDA build made here for a GPU machine that has CUDA and PyTorch but
# no package archive and little time to build (a lent GPU with minutes of
# device time): the programs, the libraries they load that such a machine
# lacks, and the ctest files, in one compressed file.
#
#   scripts/gpu-bundle.sh BUILD_DIR OUT_DIR [--data]
#
# BUILD_DIR: a Release build with GPULAB_CUDA=ON (CMAKE_CUDA_ARCHITECTURES for
# the GPU). OUT_DIR gets bundle.tar.xz (build/ and lib/) and, with --data,
# data.tar.xz (the Fashion-MNIST files the d2l lessons read). On the GPU
# machine, from the repository's root: scripts/gpu-check.sh STAGE... --bundle
# OUT_DIR. The C library, libstdc++ and libgomp are the machine's own (newer
# there). Both files are squeezed hard to fit a 64 MiB carry with the tree:
# one xz stream with a window wider than a binary, so that gpulab and
# unit_tests share their CUDA code (46 MB -> 33 MB), and the data uncompressed
# into xz (30 MB of gzip -> 26 MB; gzipped again when unpacked).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BUILD_DIR OUT_DIR [--data]" >&2; exit 2; }
build=$(cd "$1" && pwd)
out=$2
data=${3:-}
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/build/tests" "$stage/lib"
cp "$build/gpulab" "$build"/*.so "$build/CTestTestfile.cmake" "$stage/build/"
cp "$build/tests/unit_tests" "$build/tests/repl_tests" "$build/tests/CTestTestfile.cmake" "$stage/build/tests/"
# ctest's files name the build and source directories of this machine.
echo "$build" >"$stage/build/bundled_from"
sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt" >"$stage/build/source_dir"
skip='libc\.so|libm\.so|libdl\.so|libpthread|librt\.so|ld-linux|libstdc\+\+|libgcc_s|libgomp|libz\.so|libgpulab|libcuda\.so|libcudart'
for f in "$stage"/build/gpulab "$stage"/build/*.so "$stage"/build/tests/unit_tests "$stage"/build/tests/repl_tests; do ldd "$f"; done |
  awk '/=> \//{print $3}' | sort -u | grep -Ev "$skip" | xargs -r -I{} cp -L {} "$stage/lib/"
# OpenBLAS is opened at run time (Note [One thread pool] in CMakeLists.txt).
blas=$(ls /usr/lib/*/openblas-openmp/libopenblas.so.0 2>/dev/null | head -n 1 || true)
if [ -n "$blas" ]; then
  cp -L "$blas" "$stage/lib/"
  ldd "$blas" | awk '/=> \//{print $3}' | grep -E 'gfortran|quadmath' | xargs -r -I{} cp -L {} "$stage/lib/"
fi
tar -C "$stage" -cf - build lib | xz -T1 -9e --lzma2=dict=192MiB >"$out/bundle.tar.xz"
if [ "$data" = --data ]; then
  mkdir -p "$stage/datasets"
  cp -r /usr/share/datasets/fashion-mnist "$stage/datasets/"
  gunzip "$stage"/datasets/fashion-mnist/*.gz
  tar -C "$stage" -cf - datasets | xz -T0 -9 >"$out/data.tar.xz"
fi
ls -l "$out"
