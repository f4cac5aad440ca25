#!/usr/bin/env bash
# PyTorch's output on a real GPU as the oracle (issue 12): runs oracle.lua with
# gpulab and compares it, to the character, with PyTorch's output of the same
# cases (oracle.py): live where python3 has PyTorch with CUDA, else with
# oracle_expected.txt, kept from PyTorch on an H200, less the sections that
# depend on the machine (its name and properties, its free memory).
# usage: tests/gpu/oracle.sh GPULAB      exits 77 (skipped) without a real GPU
# With UPDATE=1 (and PyTorch with CUDA) it rewrites oracle_expected.txt.
set -u
gpulab=${1:?usage: oracle.sh GPULAB}
here=$(cd "$(dirname "$0")" && pwd)
real=$("$gpulab" -e 'io.write(torch.cuda.device_count() > 0 and not torch.cuda.is_emulated(0) and "yes" or "no")' 2>/dev/null)
if [ "$real" != yes ]; then
  echo "gpu oracle: SKIPPED: no real GPU here (the cases run where one is)"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
NO_COLOR=1 "$gpulab" "$here/oracle.lua" >"$work/gpulab.txt" 2>&1
py=${PYTHON:-python3}
if "$py" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  "$py" "$here/oracle.py" >"$work/torch.txt" 2>&1
  if [ "${UPDATE:-0}" = 1 ]; then cp "$work/torch.txt" "$here/oracle_expected.txt"; fi
  want=$work/torch.txt
  echo "gpu oracle: against PyTorch $("$py" -c 'import torch; print(torch.__version__)') on this GPU"
else
  # sections named in `machine` are left out on both sides
  drop() { awk '/^## /{skip = ($2 == "devices" || $2 == "out_of_memory")} !skip' "$1"; }
  drop "$here/oracle_expected.txt" >"$work/want.txt"
  drop "$work/gpulab.txt" >"$work/got.txt"
  mv "$work/got.txt" "$work/gpulab.txt"
  want=$work/want.txt
  echo "gpu oracle: against oracle_expected.txt (no PyTorch with CUDA here)"
fi
if diff -u "$want" "$work/gpulab.txt"; then
  echo "gpu oracle: $(grep -c '^## ' "$work/gpulab.txt") cases print as PyTorch prints them"
  exit 0
fi
echo "gpu oracle: gpulab's output differs from PyTorch's (above: - PyTorch, + gpulab)"
exit 1
