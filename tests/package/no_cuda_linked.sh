#!/usr/bin/env bash
# One gpulab binary for every lab machine: a CUDA build must start where the
# CUDA libraries are missing. The CUDA runtime is linked statically (it loads
# the driver itself) and cuBLAS and NVML are loaded with dlopen on first use,
# so nothing CUDA may be among the binary's NEEDED libraries. Then the binary
# runs a lesson on virtual devices.
# usage: tests/package/no_cuda_linked.sh GPULAB_BINARY
set -u
G=${1:?usage: no_cuda_linked.sh GPULAB_BINARY}
needed=$(readelf -d "$G" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
cuda=$(grep -Ei 'cuda|cublas|nvidia|nvml|nccl|nvrtc|cudnn' <<<"$needed")
if [ -n "$cuda" ]; then
  echo "FAIL: $G links CUDA libraries it must load at run time:"; echo "$cuda"; exit 1
fi
echo "ok   no CUDA library among NEEDED: $(tr '\n' ' ' <<<"$needed")"
if ! "$G" --version | grep -q '^CUDA: compiled in'; then
  echo "SKIPPED the rest: $G is not a CUDA build"; exit 0
fi
out=$(env -u GPULAB_VIRTUAL_GPUS GPULAB_EMULATE_GPUS=1 NO_COLOR=1 "$G" --virtual-gpus 2 \
      -e 'print((torch.ones(2, 3, {device="cuda:1"}) * 2):sum())' 2>&1)
if [ "$out" != "tensor(12., device='cuda:1')" ]; then echo "FAIL: virtual devices: $out"; exit 1; fi
echo "ok   the CUDA build runs on virtual devices"

# The CUDA libraries hidden (a private mount namespace puts an empty directory
# over each directory holding cuBLAS): doctor says cuBLAS is missing, and the
# binary still runs a lesson on virtual devices.
dirs=$(ldconfig -p | sed -n 's/.*libcublas\(Lt\)\?\.so.* => \(.*\)\/[^/]*$/\2/p' | sort -u)
for d in /usr/local/cuda/lib64 /usr/local/cuda/lib; do [ -d "$d" ] && dirs+=$'\n'$(readlink -f "$d"); done
# and where LD_LIBRARY_PATH finds one (PyTorch's wheels keep cuBLAS in site-packages)
IFS=: read -ra ldp <<<"${LD_LIBRARY_PATH:-}"
for d in "${ldp[@]}"; do compgen -G "$d/libcublas.so*" >/dev/null && dirs+=$'\n'$(readlink -f "$d"); done
dirs=$(sort -u <<<"$dirs" | sed '/^$/d')
if [ -z "$dirs" ]; then
  echo "SKIPPED hiding cuBLAS: it is not installed here (so it is hidden already)"
  hide=""
elif [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
  hide="for d in $(tr '\n' ' ' <<<"$dirs"); do mount -t tmpfs none \"\$d\" || exit 99; done;"
else
  echo "SKIPPED hiding cuBLAS: needs root and unshare (mount namespaces)"; exit 0
fi
script="$hide env -u GPULAB_VIRTUAL_GPUS GPULAB_EMULATE_GPUS=1 NO_COLOR=1 '$G' doctor; echo DOCTOR=\$?;
  env -u GPULAB_VIRTUAL_GPUS GPULAB_EMULATE_GPUS=1 NO_COLOR=1 '$G' --virtual-gpus 2 lesson a1_summary >/dev/null; echo LESSON=\$?"
if [ -n "$hide" ]; then out=$(unshare -m bash -c "$script" 2>&1); else out=$(bash -c "$script" 2>&1); fi
if grep -q 'cuBLAS .* not found' <<<"$out" && grep -q '^Verdict: OK' <<<"$out" && grep -q '^DOCTOR=0' <<<"$out" &&
   grep -q '^LESSON=0' <<<"$out"; then
  echo "ok   with cuBLAS hidden: doctor says so and passes, a lesson runs"
else
  echo "FAIL: with cuBLAS hidden:"; echo "$out"; exit 1
fi
