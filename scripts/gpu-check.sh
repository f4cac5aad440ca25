#!/usr/bin/env bash
# Everything that needs a real NVIDIA GPU, in stages, with a log per stage:
#
#   scripts/gpu-check.sh STAGE... [--out DIR] [--deps DIR]
#
#   build     configure and build build-gpu/ (Release, CUDA on, sm_90 unless
#             CMAKE_CUDA_ARCHITECTURES says otherwise)
#   test      gpulab doctor, then ctest in build-gpu/: the CUDA unit tests and the Lua tests run on
#             the GPU (--virtual-gpus 4 slices it), the lesson transcripts on
#             emulated devices (tests/lessons/check.sh), and NCCL at world
#             size 1 (tests/dist/nccl.lua)
#   sanitize  the CUDA unit tests and one Lua test under compute-sanitizer
#             memcheck and racecheck (the 2^31-element case is left out: hours)
#   bench     bench/gpu.sh (gpulab against PyTorch on this GPU), the MLP
#             benchmark's CUDA row, cuDNN convolutions (bench/conv.sh cuda) and
#             LeNet's examples/sec on cuda:0 (bench/lenet.lua and .py)
#   all       all four, in that order
#
# --out DIR: where the logs go (default build-gpu/logs). --deps DIR: .deb files
# from scripts/offline-deps.sh fetch, for a machine that cannot install packages.
# A stage that fails is reported and the next one still runs; the exit status
# is the number of failed stages.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=build-gpu/logs
deps=""
stages=()
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --deps) deps=$2; shift 2 ;;
    build|test|sanitize|bench) stages+=("$1"); shift ;;
    all) stages+=(build test sanitize bench); shift ;;
    *) echo "usage: $0 build|test|sanitize|bench|all... [--out DIR] [--deps DIR]" >&2; exit 2 ;;
  esac
done
[ ${#stages[@]} -gt 0 ] || { echo "usage: $0 build|test|sanitize|bench|all... [--out DIR] [--deps DIR]" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -n "$deps" ]; then eval "$(scripts/offline-deps.sh env "$deps")"; fi
export PATH="$PATH:/usr/local/cuda/bin:/usr/local/cuda/compute-sanitizer"
jobs=$(nproc)
failed=0
summary=()

# step NAME TIMEOUT CMD...: runs CMD with its output in $out/NAME.log.
step() {
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS rc
  echo "== $name: $*"
  timeout "$limit" "$@" > "$out/$name.log" 2>&1
  rc=$?
  tail -n 15 "$out/$name.log"
  summary+=("$(printf '%-22s %s (%ds)' "$name" "$([ $rc = 0 ] && echo ok || echo "FAILED, status $rc")" $((SECONDS - t0)))")
  [ $rc = 0 ] || failed=$((failed + 1))
  return $rc
}

build() {
  local gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  [ -f build-gpu/CMakeCache.txt ] && gen=()
  step configure 300 cmake -S . -B build-gpu "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DGPULAB_CUDA=ON &&
    step build 900 cmake --build build-gpu -j"$jobs"
}

test_stage() {
  nvidia-smi -L > "$out/devices.log" 2>&1 || true
  build-gpu/gpulab -e 'for i = 0, torch.cuda.device_count() - 1 do print(i, torch.cuda.get_device_name(i)) end' \
    >> "$out/devices.log" 2>&1
  cat "$out/devices.log"
  # What a teacher runs after installing: every kernel family on the real GPUs
  # against the CPU, and cuBLAS (loaded at run time) found and used.
  step doctor 300 build-gpu/gpulab doctor
  step unit 600 build-gpu/tests/unit_tests
  (cd build-gpu && step ctest 900 ctest --output-on-failure -j"$jobs" --timeout 300)
  # NCCL (libnccl.so.2 opened at run time) at world size 1 on cuda:0: the
  # collectives and a DDP step. Two ranks wait for a machine with two GPUs:
  # NCCL refuses two ranks on one GPU.
  step nccl 300 build-gpu/gpulab tests/dist/nccl.lua 29631
}

sanitize() {
  local cs=compute-sanitizer unit=build-gpu/tests/unit_tests
  local skip='*2^31*'
  step memcheck 900 $cs --tool memcheck --error-exitcode 1 --leak-check full $unit -tc='cuda:*' -tce="$skip"
  step racecheck 900 $cs --tool racecheck --error-exitcode 1 $unit -tc='cuda:*' -tce="$skip"
  step memcheck_lua 900 $cs --tool memcheck --error-exitcode 1 \
    build-gpu/gpulab --virtual-gpus 2 tests/lua/test_tensor.lua
}

bench() {
  step gpu_bench 900 bench/gpu.sh "$root/build-gpu/gpulab"
  step mlp_bench 600 bench/mlp.sh "$root/build-gpu/gpulab"
  # Issue 17's GPU figures: cuDNN convolutions against PyTorch's, and LeNet's
  # examples/sec on cuda:0 (bench/lenet.lua and .py, the same script and seed).
  step conv_bench 600 bench/conv.sh "$root/build-gpu/gpulab" cuda
  step lenet_gpulab 600 env EPOCHS=2 DEVICE=cuda build-gpu/gpulab bench/lenet.lua
  step lenet_pytorch 600 env EPOCHS=2 DEVICE=cuda "${PYTHON:-python3}" bench/lenet.py
}

for s in "${stages[@]}"; do
  case $s in
    build) build ;;
    test) test_stage ;;
    sanitize) sanitize ;;
    bench) bench ;;
  esac
done
echo "== summary (logs in $out)"
printf '%s\n' "${summary[@]}"
exit $failed
