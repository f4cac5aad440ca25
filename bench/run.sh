#!/usr/bin/env bash
# gpulab vs PyTorch on this machine's CPU, side by side in one run, as a
# Markdown table (the one in bench/README.md).
# Usage: bench/run.sh [GPULAB_BINARY]   (default: build/gpulab, then gpulab on PATH)
#   ROUNDS=N          rounds per configuration (default 3); each round runs both
#                     sides once, alternating which goes first
#   BENCH_REPEATS=N   timed repeats per workload inside a run (default 5, best taken)
#   NEIGHBOUR=0       skip the configuration with a busy process beside the benchmark
#   PYTHON=python3    the Python that has torch
#   INSTRUCTIONS=1    also callgrind instruction counts (bench/instructions.sh)
# Each ratio is PyTorch's time / gpulab's time (> 1: gpulab faster): the
# median over the rounds, with the lowest and highest round in brackets.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/gpulab_binary.sh" "${1:-}"
py="${PYTHON:-python3}"
rounds="${ROUNDS:-3}"
tmp="$(mktemp -d)"
spinner=""
cleanup() { [[ -n "$spinner" ]] && kill "$spinner" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

"$py" -c 'import torch' 2>/dev/null || { echo "bench: $py cannot import torch (set PYTHON)" >&2; exit 1; }

echo "# machine: nproc=$(nproc), cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# env: OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset} OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-unset}" \
     "OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-unset} GOMP_SPINCOUNT=${GOMP_SPINCOUNT:-unset} (both sides see the same)"
echo "# torch: $("$py" -c 'import torch; print(torch.__version__, "threads", torch.get_num_threads())')" \
     "(OpenMP default wait policy: spinning)"
echo "# gpulab: $bin: OpenMP $(OMP_DISPLAY_ENV=true "$bin" -e '' 2>&1 |
     sed -n "s/^ *OMP_NUM_THREADS = '\(.*\)'/threads \1/p;s/^ *OMP_WAIT_POLICY = '\(.*\)'/wait policy \1/p" | tr '\n' ' ')"
echo "# rounds: $rounds, repeats per workload: ${BENCH_REPEATS:-5}"

# run CONFIG ROUND: both sides' CPU workloads and MLP steps (default threads and
# one thread), the side that goes first alternating from round to round.
run() {
  local cfg="$1" r="$2" sides=(gl py)
  (( r % 2 == 0 )) && sides=(py gl)
  for s in "${sides[@]}"; do
    if [[ $s == gl ]]; then
      "$bin" "$here/cpu_bench.lua" | sed "s/^/$cfg $r gl /"
      "$bin" "$here/mlp_bench.lua" cpu | sed -n "s/^mlp_step /$cfg $r gl mlp_default /p"
      OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "$bin" "$here/mlp_bench.lua" cpu | sed -n "s/^mlp_step /$cfg $r gl mlp_1thread /p"
    else
      "$py" "$here/cpu_bench.py" | sed "s/^/$cfg $r py /"
      "$py" "$here/mlp_bench.py" cpu | sed -n "s/^mlp_step /$cfg $r py mlp_default /p"
      OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "$py" "$here/mlp_bench.py" cpu | sed -n "s/^mlp_step /$cfg $r py mlp_1thread /p"
    fi
  done
}

for r in $(seq "$rounds"); do run quiet "$r" >> "$tmp/results.txt"; done
if [[ "${NEIGHBOUR:-1}" != 0 ]]; then
  # One busy process beside the benchmark (as another user's job), for the
  # whole of this configuration.
  # Each workload's figure there is the mean over at least 0.5 s of calls
  # (BENCH_STAT=mean), both sides: the best of five short calls would only
  # catch the moments the scheduler left both cores to the benchmark.
  bash -c 'while :; do :; done' &
  spinner=$!
  for r in $(seq "$rounds"); do BENCH_STAT=mean run neighbour "$r" >> "$tmp/results.txt"; done
  kill "$spinner"; wait "$spinner" 2>/dev/null || true; spinner=""
fi

# Start-up: best of 10 wall-clock runs after one warm run, and the largest
# resident set (gpulab runs first, so ru_maxrss is its own).
"$py" - "$bin" "$py" >> "$tmp/results.txt" <<'PY'
import resource, subprocess, sys, time
gl, py = sys.argv[1], sys.argv[2]
def best(cmd, n=10):
    subprocess.run(cmd, check=True)
    b = float("inf")
    for _ in range(n):
        t0 = time.perf_counter(); subprocess.run(cmd, check=True); b = min(b, time.perf_counter() - t0)
    return b
g = best([gl, "-e", ""])
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
t = best([py, "-c", "import torch"])
print("startup 1 gl startup", g)
print("startup 1 gl startup_rss_kb", rss)
print("startup 1 py startup", t)
PY
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
"$py" "$here/table.py" "$tmp/results.txt"
# Instruction counts (start-up, per op, both sides), which load does not
# disturb: INSTRUCTIONS=1 (needs valgrind; a few minutes).
if [[ "${INSTRUCTIONS:-0}" != 0 ]]; then
  PYTHON="$py" "$here/instructions.sh" "$bin" | sed 's/^/# callgrind: /'
fi
