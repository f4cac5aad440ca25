#!/usr/bin/env bash
# Everything that needs a real NVIDIA GPU, in stages, with a log per stage:
#
#   scripts/gpu-check.sh STAGE... [--out DIR] [--deps DIR | --bundle DIR]
#
#   build     configure and build build-gpu/ (Release, CUDA on, sm_90 unless
#             CMAKE_CUDA_ARCHITECTURES says otherwise)
#   test      gpulab doctor, then ctest in build-gpu/: the CUDA unit tests and the Lua tests run on
#             the GPU (--virtual-gpus 4 slices it), the lesson transcripts on
#             emulated devices (tests/lessons/check.sh), and NCCL at world
#             size 1 (tests/dist/nccl.lua)
#   sanitize  the CUDA unit tests and the op-by-op Lua test under
#             compute-sanitizer memcheck (with its leak check), racecheck,
#             initcheck and synccheck, and one full lesson under memcheck (the
#             2^31-element case is left out: hours)
#   lessons   every lesson on the real GPU, unsliced and as --virtual-gpus 2,
#             against the transcripts kept in tests/lessons/gpu/
#             (tests/lessons/gpu.sh; UPDATE=1 rewrites them)
#   bench     bench/gpu.sh (gpulab against PyTorch on this GPU), the MLP
#             benchmark's CUDA row, cuDNN convolutions (bench/conv.sh cuda) and
#             LeNet's examples/sec on cuda:0 (bench/lenet.lua and .py)
#   all       all five, in that order (build is skipped with --bundle)
#   quick     what one call of a 15-minute lease holds (about 4 minutes on an
#             H200): doctor, ctest, memcheck of the CUDA unit tests and NCCL
#             at world size 1 side by side, then bench/launch_cost.cu and
#             elementwise_shapes.cu (built there), the benchmark table,
#             bench/gpu_probe, the MLP's CUDA rows (float32 and autocast, three
#             rounds), cuDNN's convolutions and two LeNet epochs a side
#
# --out DIR: where the logs go (default build-gpu/logs). --deps DIR: .deb files
# from scripts/offline-deps.sh fetch, for a machine that cannot install packages.
# --bundle DIR: a build made elsewhere by scripts/gpu-bundle.sh (for a lent GPU
# whose minutes should not go to compiling): unpacked where its ctest files
# expect it, with its libraries and, if bundled, the Fashion-MNIST data.
# --tar FILE: at the end, the logs, tests/lessons/gpu/ and the oracle's
# expected output (rewritten there by UPDATE=1) in one file, for a machine
# that gives back only a few files.
# A stage that fails is reported and the next one still runs; the exit status
# is the number of failed steps.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=build-gpu/logs
deps=""
bundle=""
tarball=""
stages=()
usage="usage: $0 build|test|sanitize|lessons|bench|all|quick... [--out DIR] [--deps DIR | --bundle DIR] [--tar FILE]"
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --deps) deps=$2; shift 2 ;;
    --bundle) bundle=$(cd "$2" && pwd); shift 2 ;;
    --tar) tarball=$2; shift 2 ;;
    build|test|sanitize|lessons|bench|quick) stages+=("$1"); shift ;;
    all) stages+=(build test sanitize lessons bench); shift ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
[ ${#stages[@]} -gt 0 ] || { echo "$usage" >&2; exit 2; }
B=build-gpu
if [ -n "$bundle" ]; then
  # The bundle's ctest files name the directories it was built in: its build
  # goes where those names lead once its source directory points here.
  tmp=$(mktemp -d)
  tar -C "$tmp" -xJf "$bundle/bundle.tar.xz"
  from=$(cat "$tmp/build/bundled_from")
  src=$(cat "$tmp/build/source_dir")
  if [ "$src" != "$root" ]; then mkdir -p "$(dirname "$src")" && ln -sfn "$root" "$src"; fi
  case $from in "$src"/*) B=$root/${from#"$src"/} ;; *) B=$from ;; esac
  mkdir -p "$B"
  cp -a "$tmp/build/." "$B/"
  mkdir -p "$B/lib" && cp -a "$tmp/lib/." "$B/lib/"
  rm -rf "$tmp"
  if [ -f "$bundle/data.tar.xz" ]; then
    tar -C "$B" -xJf "$bundle/data.tar.xz" && gzip -1 "$B"/datasets/fashion-mnist/*-ubyte
    export GPULAB_DATASETS="$B/datasets"
  fi
  # cuBLAS, cuDNN and NCCL where PyTorch's wheels keep them
  nv=$(python3 -c 'import nvidia; print(list(nvidia.__path__)[0])' 2>/dev/null || true)
  extra=$B/lib
  if [ -n "$nv" ]; then for d in "$nv"/*/lib; do [ -d "$d" ] && extra=$extra:$d; done; fi
  [ -d /usr/local/cuda/lib64 ] && extra=$extra:/usr/local/cuda/lib64
  export LD_LIBRARY_PATH="$extra${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  stages=("${stages[@]/build/}")
fi
[ "$out" = build-gpu/logs ] && out=$B/logs
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -n "$deps" ]; then eval "$(scripts/offline-deps.sh env "$deps")"; fi
export PATH="$PATH:/usr/local/cuda/bin:/usr/local/cuda/compute-sanitizer"
jobs=$(nproc)
# Each step's line goes to a file: steps run in subshells (cd, &) too.
summary_file=$out/summary.txt
: > "$summary_file"

# step NAME TIMEOUT CMD...: runs CMD with its output in $out/NAME.log.
step() {
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS rc
  echo "== $name: $*"
  timeout "$limit" "$@" > "$out/$name.log" 2>&1
  rc=$?
  tail -n 15 "$out/$name.log"
  printf '%-22s %s (%ds)\n' "$name" "$([ $rc = 0 ] && echo ok || echo "FAILED, status $rc")" $((SECONDS - t0)) \
    >> "$summary_file"
  return $rc
}

build() {
  local gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  [ -f "$B/CMakeCache.txt" ] && gen=()
  step configure 300 cmake -S . -B "$B" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DGPULAB_CUDA=ON &&
    step build 900 cmake --build "$B" -j"$jobs"
}

test_stage() {
  nvidia-smi -L > "$out/devices.log" 2>&1 || true
  "$B/gpulab" -e 'for i = 0, torch.cuda.device_count() - 1 do print(i, torch.cuda.get_device_name(i)) end' \
    >> "$out/devices.log" 2>&1
  cat "$out/devices.log"
  # What a teacher runs after installing: every kernel family on the real GPUs
  # against the CPU, and cuBLAS (loaded at run time) found and used.
  step doctor 300 "$B/gpulab" doctor
  step unit 600 "$B/tests/unit_tests"
  gpu_ctest 900
  # NCCL (libnccl.so.2 opened at run time) at world size 1 on cuda:0: the
  # collectives and a DDP step. Two ranks wait for a machine with two GPUs:
  # NCCL refuses two ranks on one GPU.
  step nccl 300 "$B/gpulab" tests/dist/nccl.lua 29631
}

sanitize() {
  local cs=compute-sanitizer unit=$B/tests/unit_tests
  local skip='*2^31*'
  step memcheck 900 $cs --tool memcheck --error-exitcode 1 --leak-check full $unit -tc='cuda:*' -tce="$skip"
  for tool in racecheck initcheck synccheck; do
    step $tool 900 $cs --tool $tool --error-exitcode 1 $unit -tc='cuda:*' -tce="$skip"
  done
  for tool in memcheck racecheck initcheck synccheck; do
    step ${tool}_lua 900 env NO_COLOR=1 $cs --tool $tool --error-exitcode 1 "$B/gpulab" tests/lua/test_ops_devices.lua
  done
  step memcheck_lesson 900 env NO_COLOR=1 GPULAB_QUICK=1 $cs --tool memcheck --error-exitcode 1 \
    "$B/gpulab" --seed 0 lesson e4_lenet
}

lessons() {
  step lessons 900 tests/lessons/gpu.sh "$B/gpulab"
}

bench() {
  step gpu_bench 900 bench/gpu.sh "$B/gpulab"
  step mlp_bench 600 bench/mlp.sh "$B/gpulab"
  # Issue 17's GPU figures: cuDNN convolutions against PyTorch's, and LeNet's
  # examples/sec on cuda:0 (bench/lenet.lua and .py, the same script and seed).
  step conv_bench 600 bench/conv.sh "$B/gpulab" cuda
  step lenet_gpulab 600 env EPOCHS=2 DEVICE=cuda "$B/gpulab" bench/lenet.lua
  step lenet_pytorch 600 env EPOCHS=2 DEVICE=cuda "${PYTHON:-python3}" bench/lenet.py
}

# The ctest suite where the machine lacks the tools of some tests: the style
# check (clang-format), the Jupyter kernel's clients, the fuzzers' corpus run
# and the no-CUDA link check say nothing about the GPU.
gpu_ctest() {
  (cd "$B" && step ctest "$1" ctest --output-on-failure -j"$jobs" --timeout 150 \
    -E '^(format|kernel_.*|fuzz_.*|no_cuda_linked)$')
}

quick() {
  nvidia-smi -L > "$out/devices.log" 2>&1 || true
  cat "$out/devices.log"
  step doctor 60 "$B/gpulab" doctor &
  gpu_ctest 200 &
  step memcheck 200 compute-sanitizer --tool memcheck --error-exitcode 1 --leak-check full \
    "$B/tests/unit_tests" -tc='cuda:*' -tce='*2^31*' &
  step nccl 60 "$B/gpulab" tests/dist/nccl.lua 29631 &
  wait
  # the runtime's own launch cost and the elementwise launch shapes, built there (seconds)
  local tool
  for tool in launch_cost elementwise_shapes; do
    nvcc -O3 -std=c++17 -arch=sm_90 -o "$out/$tool" "bench/$tool.cu" > "$out/${tool}_build.log" 2>&1 &&
      step "$tool" 60 "$out/$tool"
    rm -f "$out/$tool"
  done
  step gpu_bench 120 bench/gpu.sh "$B/gpulab"
  step probe_gpulab 60 "$B/gpulab" bench/gpu_probe.lua
  step probe_pytorch 60 "${PYTHON:-python3}" bench/gpu_probe.py
  paste "$out/probe_gpulab.log" "$out/probe_pytorch.log"
  step mlp_cuda 300 env MLP_ONLY=cuda ROUNDS=3 bench/mlp.sh "$B/gpulab"
  # issue 17's GPU figures, short: cuDNN's convolutions and two LeNet epochs a side
  step conv_bench 120 bench/conv.sh "$B/gpulab" cuda
  step lenet_gpulab 120 env EPOCHS=2 DEVICE=cuda "$B/gpulab" bench/lenet.lua
  step lenet_pytorch 120 env EPOCHS=2 DEVICE=cuda "${PYTHON:-python3}" bench/lenet.py
}

# Note [cuDNN batch norm declines]: a refused call keeps a learner's model
# running on the composed form, but on this machine it is a finding (a limit of
# cuDNN's or a bug of gpulab's), so any log that shows one fails the run.
declines() {
  local logs=("$out"/*.log)
  [ -f "$B/Testing/Temporary/LastTest.log" ] && logs+=("$B/Testing/Temporary/LastTest.log")
  local hits
  hits=$(grep -l "cuDNN's batch norm refused" "${logs[@]}" 2>/dev/null | tr '\n' ' ')
  [ -z "$hits" ] || printf '%-22s %s\n' batch_norm_declines "FAILED: cuDNN refused a batch norm call: $hits" \
    >> "$summary_file"
}

pack() {
  [ -n "$tarball" ] || return 0
  tar -czf "$tarball" -C "$out" . -C "$root" tests/lessons/gpu tests/gpu/oracle_expected.txt
}
trap pack EXIT

for s in "${stages[@]}"; do
  case $s in
    quick) quick ;;
    build) build ;;
    test) test_stage ;;
    sanitize) sanitize ;;
    lessons) lessons ;;
    bench) bench ;;
  esac
done
declines
echo "== summary (logs in $out)"
cat "$summary_file"
exit "$(grep -c FAILED "$summary_file")"
