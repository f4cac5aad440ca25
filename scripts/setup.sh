#!/usr/bin/env bash
# Installs what gpulab needs to build, from Debian packages, if missing.
# With --tests, also what the tests compare against: safetensors and numpy from
# PyPI (torch is used by the tests when present, but is too large to install here).
set -euo pipefail
# libopenblas-openmp-dev: OpenBLAS on OpenMP threads (Note [One thread pool] in CMakeLists.txt)
# libmimalloc-dev: the process allocator (Note [Allocator] in CMakeLists.txt)
pkgs=(build-essential cmake pkg-config liblua5.4-dev doctest-dev libopenblas-openmp-dev libedit-dev libmimalloc-dev)
tests=0
[ "${1:-}" = "--tests" ] && tests=1
# tmux: the CLI tests drive the REPL in a real terminal (completion, Ctrl-C).
if [ $tests = 1 ]; then pkgs+=(tmux); fi
# With --fuzz, clang and its libFuzzer/sanitizer runtimes and OpenMP (scripts/fuzz.sh).
[ "${1:-}" = "--fuzz" ] && pkgs+=(clang libclang-rt-14-dev libomp-dev)
# Debian's pip only where no python3 with pip exists (pyenv or a venv bring their own).
# lintian: tests/package/check.sh checks the .deb with it.
if [ $tests = 1 ]; then pkgs+=(lintian); fi
if [ $tests = 1 ] && ! python3 -m pip --version >/dev/null 2>&1; then pkgs+=(python3 python3-pip); fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  echo "gpulab setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ $tests = 1 ] && ! python3 -c 'import safetensors, numpy' >/dev/null 2>&1; then
  echo "gpulab setup: installing safetensors and numpy (pip) for the checkpoint round-trip test"
  python3 -m pip install --quiet safetensors numpy 2>/dev/null ||
    python3 -m pip install --quiet --break-system-packages safetensors numpy ||
    echo "gpulab setup: could not install safetensors/numpy; that test will say it was skipped"
fi
