#!/usr/bin/env bash
# Builds the libFuzzer targets with clang, ASan and UBSan (build-fuzz/) and
# runs each for a bounded time from its seed corpus (tests/fuzz/README.md).
# Any crash, sanitizer report, leak of a Lua error out of a call, or hang fails
# it. FUZZ_SECONDS (default 120) bounds each target's run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --fuzz
if ! command -v clang++ >/dev/null 2>&1; then
  echo "gpulab fuzz: SKIPPED: clang++ is not installed (scripts/setup.sh --fuzz could not install it)"
  exit 0
fi
secs="${FUZZ_SECONDS:-120}"
# -O1 with line tables: the whole library is instrumented, so this build is the
# long part of the script on CI's 2 cores; stack traces still name file:line.
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" \
  -DGPULAB_CUDA=OFF -DGPULAB_FUZZ=ON >/dev/null
cmake --build build-fuzz --target fuzz_safetensors fuzz_lua -j"$(nproc)"
work="$(mktemp -d)"  # new inputs; crash reproducers go to build-fuzz/artifacts/
trap 'rm -rf "$work"' EXIT
mkdir -p build-fuzz/artifacts
# A request over 2 GiB fails (null) as a device out of memory would: gpulab raises
# its OOM error, where libFuzzer would otherwise report a legal huge tensor.
# No allocation stacks and a small quarantine: half the resident memory of a
# long run (1.2 GB -> 0.65 GB replaying 1,500 units); the stack of a finding's
# own access is still reported (tests/fuzz/README.md, sixth campaign).
export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=0:max_allocation_size_mb=2048:malloc_context_size=0:quarantine_size_mb=16
mkdir -p "$work/st" "$work/lua"
# FUZZ_RUNS=N (CI): a fixed number of inputs from a fixed seed (FUZZ_SEED,
# default 1), so the run is the same on every machine and a submission is
# judged on its own code, not on luck; a crash there is a regression.
# Otherwise: a random exploration for FUZZ_SECONDS per target, in fork mode
# for fuzz_lua, where a legal but huge tensor (past the harness's memory
# limit) or a slow legal call is counted and skipped, not reported.
if [ -n "${FUZZ_RUNS:-}" ]; then
  bound=(-runs="$FUZZ_RUNS" -seed="${FUZZ_SEED:-1}")
  lua_mode=()
  echo "gpulab fuzz: $FUZZ_RUNS inputs per target from seed ${FUZZ_SEED:-1}"
else
  bound=(-max_total_time="$secs")
  lua_mode=(-fork=1 -ignore_ooms=1 -ignore_timeouts=1 -ignore_crashes=0)
  echo "gpulab fuzz: ${secs}s per target"
fi
echo "gpulab fuzz: fuzz_safetensors"
build-fuzz/tests/fuzz_safetensors "${bound[@]}" -max_len=4096 -rss_limit_mb=2048 -timeout=10 \
  -print_final_stats=1 -dict=tests/fuzz/safetensors.dict -artifact_prefix=build-fuzz/artifacts/ "$work/st" tests/fuzz/corpus
echo "gpulab fuzz: fuzz_lua"
# fuzz_lua's pool keeps up to 64 values alive, so legal tensors of up to 2 GiB
# each could pass its 4 GiB RSS limit together (seen: one of 2 GiB beside 51 of
# 42 MB): here a request over 1 GiB fails as an out-of-memory would.
ASAN_OPTIONS=${ASAN_OPTIONS/max_allocation_size_mb=2048/max_allocation_size_mb=1024} \
build-fuzz/tests/fuzz_lua "${lua_mode[@]}" "${bound[@]}" -max_len=512 -rss_limit_mb=4096 -malloc_limit_mb=4096 \
  -timeout=60 -close_fd_mask=1 -print_final_stats=1 -artifact_prefix=build-fuzz/artifacts/ "$work/lua" tests/fuzz/corpus_lua
