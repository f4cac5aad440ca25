#!/usr/bin/env bash
# MLP training benchmark (issue 5): gpulab vs PyTorch on this machine.
# Runs bench/mlp_bench.lua and bench/mlp_bench.py alternately ROUNDS times
# (default 5) per configuration and prints a Markdown table of the median
# time per step (each run's own figure is the median over its 200 timed steps).
# Configurations: the default thread counts, and one thread everywhere
# (OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1); plus CUDA when both sides see
# a real GPU.
# Usage: bench/mlp.sh [GPULAB_BINARY]      ROUNDS=N, MLP_STEPS=N, MLP_WARMUP=N, MLP_ONLY=PREFIX
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/gpulab_binary.sh" "${1:-}"
py="${PYTHON:-python3}"
rounds="${ROUNDS:-5}"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT

echo "# machine: nproc=$(nproc), cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# torch: $("$py" -c 'import torch; print(torch.__version__)'); gpulab: $bin; rounds: $rounds; steps: ${MLP_STEPS:-200} after ${MLP_WARMUP:-20} warm-up"

configs=("default|" "1 thread|OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1" "autocast bfloat16|MLP_AMP=1")
gpu_gl="$("$bin" -e 'print(torch.cuda.is_available() and torch.cuda.device_count() > 0 and not torch.cuda.is_virtual(0))' 2>/dev/null || echo false)"
gpu_py="$("$py" -c 'import torch; print(torch.cuda.is_available())' 2>/dev/null || echo False)"
[[ "$gpu_gl" == "true" && "$gpu_py" == "True" ]] && configs+=("cuda|DEVICE=cuda" "cuda autocast float16|DEVICE=cuda MLP_AMP=1")
# MLP_ONLY=PREFIX keeps the configurations whose label starts with it (cuda: the GPU rows)
if [ -n "${MLP_ONLY:-}" ]; then
  kept=()
  for c in "${configs[@]}"; do [[ "$c" == "$MLP_ONLY"* ]] && kept+=("$c"); done
  configs=("${kept[@]}")
fi

for c in "${configs[@]}"; do
  label="${c%%|*}"; envs="${c#*|}"
  dev=cpu
  [[ "$envs" == DEVICE=cuda* ]] && { dev=cuda; envs="${envs#DEVICE=cuda}"; }
  for r in $(seq "$rounds"); do
    env $envs "$bin" "$here/mlp_bench.lua" "$dev" | sed "s/^/gl $r /" >> "$tmp/$label.txt"
    env $envs "$py" "$here/mlp_bench.py" "$dev" | sed "s/^/py $r /" >> "$tmp/$label.txt"
  done
done

"$py" - "$tmp" "${configs[@]}" <<'PY'
import statistics, sys
d, configs = sys.argv[1], [c.split("|")[0] for c in sys.argv[2:]]
print()
print("| configuration | gpulab ms/step | PyTorch ms/step | ratio (PyTorch/gpulab) | final loss gpulab / PyTorch | target |")
print("|---|---|---|---|---|---|")
for label in configs:
    runs = {"gl": [], "py": []}
    loss = {}
    for line in open(f"{d}/{label}.txt"):
        side, _, key, val = line.split()
        if key == "mlp_step": runs[side].append(float(val))
        if key == "mlp_loss": loss[side] = val
    g, t = statistics.median(runs["gl"]), statistics.median(runs["py"])
    r = t / g
    print(f"| {label} | {g*1e3:.3f} (runs {min(runs['gl'])*1e3:.3f}-{max(runs['gl'])*1e3:.3f}) | "
          f"{t*1e3:.3f} (runs {min(runs['py'])*1e3:.3f}-{max(runs['py'])*1e3:.3f}) | {r:.2f} | "
          f"{loss.get('gl')} / {loss.get('py')} | >= 1.0: {'yes' if r >= 1.0 else '**no**'} |")
PY
