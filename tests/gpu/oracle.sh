#!/usr/bin/env bash
# PyTorch's output on a real GPU as the oracle (issue 12): runs oracle.lua with
# gpulab and compares it, to the character, with PyTorch's output of the same
# cases (oracle.py): live where python3 has PyTorch with CUDA, else with
# oracle_expected.txt (PyTorch 2.11 on an H200, for the cases it holds, less
# `devices`, which names the GPU). Both sides are masked where a run's own
# numbers show (free memory, NVML's per-process memory); the cases named in
# oracle_known.txt are left out and listed.
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
known=$(sed -n 's/^\([a-z_0-9]*\): .*/\1/p' "$here/oracle_known.txt" | tr '\n' ' ')
# sections SKIP KEEP < FILE: drops the sections named in SKIP; with KEEP, keeps only those
sections() {
  awk -v skip=" $1 " -v keep="${2:+ $2 }" '/^## /{n = $2; out = index(skip, " " n " ") == 0 && (keep == "" || index(keep, " " n " ") > 0)} out'
}
numbers() {
  sed -E -e 's/of which [0-9.]+ (bytes|KiB|MiB|GiB) is free/of which N is free/' \
    -e 's/Process [0-9]+ has [0-9.]+ (bytes|KiB|MiB|GiB) memory in use\. //g' \
    -e 's/this process has [0-9.]+ (bytes|KiB|MiB|GiB) memory in use/this process has N memory in use/'
}
py=${PYTHON:-python3}
if "$py" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  "$py" "$here/oracle.py" >"$work/torch.txt" 2>&1
  if [ "${UPDATE:-0}" = 1 ]; then cp "$work/torch.txt" "$here/oracle_expected.txt"; fi
  sections "$known" <"$work/torch.txt" | numbers >"$work/want.txt"
  sections "$known" <"$work/gpulab.txt" | numbers >"$work/got.txt"
  echo "gpu oracle: against PyTorch $("$py" -c 'import torch; print(torch.__version__)') on this GPU"
else
  held=$(sed -n 's/^## //p' "$here/oracle_expected.txt" | tr '\n' ' ')
  sections "$known devices" "$held" <"$here/oracle_expected.txt" | numbers >"$work/want.txt"
  sections "$known devices" "$held" <"$work/gpulab.txt" | numbers >"$work/got.txt"
  echo "gpu oracle: against oracle_expected.txt (no PyTorch with CUDA here)"
fi
for k in $known; do echo "gpu oracle: known difference, not compared: $(grep "^$k: " "$here/oracle_known.txt")"; done
if diff -u "$work/want.txt" "$work/got.txt"; then
  echo "gpu oracle: $(grep -c '^## ' "$work/got.txt") cases print as PyTorch prints them"
  exit 0
fi
echo "gpu oracle: gpulab's output differs from PyTorch's (above: - PyTorch, + gpulab)"
exit 1
