#!/usr/bin/env bash
# Instruction counts (callgrind), which a busy machine does not disturb:
#   - start-up: a whole `gpulab -e ''`, with the share of the dynamic loader
#     (relocations), of loading the embedded Lua library and of running it;
#   - per op: one 1-element `x + y` from Lua, and from Python with PyTorch:
#     (a loop of N+10000 ops - a loop of N ops) / 10000, minus the same for a
#     loop that only assigns, so that the loop itself is not counted.
# Usage: bench/instructions.sh [GPULAB_BINARY]   (PYTHON=python3 with torch; TORCH=0 skips it)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/gpulab_binary.sh" "${1:-}"
py="${PYTHON:-python3}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
command -v valgrind >/dev/null || { echo "bench: valgrind is needed" >&2; exit 1; }

ir() { valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" 2>&1 >/dev/null |
       sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
inclusive() {  # inclusive instructions of the functions matching $1 (largest)
  callgrind_annotate --inclusive=yes "$tmp/cg.out" 2>/dev/null | grep -E "$1" | head -1 | awk '{gsub(",","",$1); print $1}'
}

total=$(ir "$bin" -e '')
echo "startup_instructions $total"
echo "startup_dynamic_loader $(inclusive '_dl_start ')"
echo "startup_lua_load $(inclusive 'luaL_loadbufferx ')"
echo "startup_lua_library $(inclusive 'gl::bindings::open\(')"

cat > "$tmp/op.lua" <<'LUA'
local n, op = tonumber(arg[1]), arg[2] == "add"
local x, y = torch.ones(1), torch.ones(1)
local z = x + y
if op then for _ = 1, n do z = x + y end else for _ = 1, n do z = x end end
LUA
cat > "$tmp/op.py" <<'PY'
import sys, torch
n, op = int(sys.argv[1]), sys.argv[2] == "add"
x, y = torch.ones(1), torch.ones(1)
z = x + y
if op:
    for _ in range(n): z = x + y
else:
    for _ in range(n): z = x
PY
per_op() {  # per_op CMD...: instructions per x + y
  local a1 a2 e1 e2
  a1=$(ir "$@" 1000 add); a2=$(ir "$@" 11000 add)
  e1=$(ir "$@" 1000 empty); e2=$(ir "$@" 11000 empty)
  echo $(( ((a2 - a1) - (e2 - e1)) / 10000 ))
}
echo "per_op_instructions_gpulab $(per_op "$bin" "$tmp/op.lua")"
if [[ "${TORCH:-1}" != 0 ]] && "$py" -c 'import torch' 2>/dev/null; then
  echo "per_op_instructions_pytorch $(OMP_NUM_THREADS=1 PYTHONHASHSEED=0 per_op "$py" "$tmp/op.py")"
fi
