# Sourced by the benchmark scripts: sets $bin to the gpulab to measure, the
# first argument if given, else build/gpulab, else gpulab on PATH.
# Usage: here=...; . "$here/gpulab_binary.sh" "${1:-}"
bin="${1:-}"
if [[ -z "$bin" ]]; then
  if [[ -x "$here/../build/gpulab" ]]; then bin="$here/../build/gpulab"; else bin="$(command -v gpulab)"; fi
fi
[[ -x "$bin" ]] || { echo "gpulab binary not found: $bin" >&2; exit 1; }
