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
