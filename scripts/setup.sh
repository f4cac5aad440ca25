#!/usr/bin/env bash
# Installs what gpulab needs to build, from Debian packages, if missing.
# With --tests, also what the tests compare against: safetensors and numpy from
# PyPI (torch is used by the tests when present, but is too large to install here).
set -euo pipefail
# libopenblas-openmp-dev: OpenBLAS on OpenMP threads (Note [One thread pool] in CMakeLists.txt)
# zlib1g-dev: reading the gzip-compressed IDX files; dataset-fashion-mnist: the data the d2l lessons train on.
# libgloo-dev: torch.distributed's gloo backend (optional for the build; cmake/dist.cmake)
# libdnnl-dev: oneDNN, the CPU's convolutions, pooling and batch norm
pkgs=(build-essential cmake pkg-config liblua5.4-dev doctest-dev libopenblas-openmp-dev libedit-dev zlib1g-dev
      dataset-fashion-mnist libgloo-dev libdnnl-dev)
# The Jupyter kernel (gpulab kernel): xeus and its ZeroMQ/JSON headers.
pkgs+=(xeus-dev cppzmq-dev libzmq3-dev nlohmann-json3-dev)
# libcairo2-dev: cairo draws the plots (plot/) to SVG and PNG
pkgs+=(libcairo2-dev)
# libmimalloc-dev: the process allocator (Note [Allocator] in CMakeLists.txt)
pkgs+=(libmimalloc-dev)
tests=0
[ "${1:-}" = "--tests" ] && tests=1
# tmux: the CLI tests drive the REPL in a real terminal (completion, Ctrl-C).
if [ $tests = 1 ]; then pkgs+=(tmux); fi
# clang-format: the `format` test checks the C++ and CUDA sources against .clang-format.
if [ $tests = 1 ]; then pkgs+=(clang-format); fi
# Real Jupyter clients for the kernel's tests (jupyter_kernel_test comes from PyPI, below).
if [ $tests = 1 ]; then pkgs+=(python3-jupyter-client python3-nbclient python3-nbformat jupyter-console python3-venv); fi
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
# jupyter_kernel_test (PyPI) in a venv over Debian's python3 and its Jupyter packages
# (tests/kernel/python.sh finds it there).
venv="${GPULAB_JUPYTER_VENV:-$HOME/.cache/gpulab/jupyter-venv}"
if [ $tests = 1 ] && ! "$venv/bin/python" -c 'import jupyter_kernel_test, jupyter_client' >/dev/null 2>&1; then
  echo "gpulab setup: installing jupyter_kernel_test (pip) into $venv for the Jupyter kernel's tests"
  { /usr/bin/python3 -m venv --system-site-packages "$venv" &&
    "$venv/bin/python" -m pip install --quiet jupyter_kernel_test; } ||
    echo "gpulab setup: could not install jupyter_kernel_test; the kernel's protocol test will say it was skipped"
fi
