#!/usr/bin/env bash
# Ctrl-C during torch.save never loses data (Note [Interrupted save]).
# A script saves a 16 MB checkpoint in a loop, printing "saved K" after each
# save returns; a real SIGINT lands at a random moment, many times over. After
# each run the file must load, hold the last announced save or the one after
# it (an interrupt that lands after the rename reaches the caller before its
# print), and no temporary may be left beside it. A KeyboardInterrupt raised
# from inside torch.save must mean that save did not replace the file.
# Usage: save_interrupt.sh path/to/gpulab [rounds]
set -u
gpulab="$1"
rounds="${2:-16}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
set -m  # background jobs get their own process group and default SIGINT handling

cat >"$dir/saver.lua" <<'EOF'
local path = arg[1]
local big = torch.randn(4, 1000, 1000)
local k = 0
while true do
  k = k + 1
  big[{0, 0, 0}] = k
  torch.save({tag = torch.tensor(k), big = big}, path)
  io.write('saved ', k, '\n')
  io.flush()
end
EOF

cat >"$dir/check.lua" <<'EOF'
local d = torch.load(arg[1])
assert(d.big.shape == torch.Size{4, 1000, 1000}, 'torn checkpoint: ' .. tostring(d.big.shape))
assert(d.big[{0, 0, 0}]:item() == d.tag:item(), 'tensors of two different saves in one file')
io.write(d.tag:item(), '\n')
EOF

fail=0
interrupted=0
for ((i = 1; i <= rounds; i++)); do
  f="$dir/ck$i.st"
  "$gpulab" "$dir/saver.lua" "$f" >"$dir/out" 2>"$dir/err" &
  pid=$!
  # 0.15 s to 0.9 s: from the first save (before it ends) to several saves in.
  sleep "0.$((15 + RANDOM % 75))"
  kill -INT "$pid" 2>/dev/null
  for ((t = 0; t < 100; t++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "round $i: gpulab still running 10 s after SIGINT"; kill -KILL "$pid"; fail=1
  fi
  wait "$pid"; status=$?
  grep -q KeyboardInterrupt "$dir/err" && interrupted=$((interrupted + 1))
  last="$(grep -c '^saved' "$dir/out")"
  leftovers="$(find "$dir" -name "ck$i.st.tmp.*" | wc -l)"
  if [ "$leftovers" != 0 ]; then echo "round $i: temporary left behind"; fail=1; fi
  if [ ! -e "$f" ]; then
    if [ "$last" != 0 ]; then echo "round $i: saved $last times but the file is gone"; fail=1; fi
    continue
  fi
  got="$("$gpulab" "$dir/check.lua" "$f" 2>&1)" || { echo "round $i: checkpoint does not load: $got"; fail=1; continue; }
  if [ "$got" != "$last" ] && [ "$got" != "$((last + 1))" ]; then
    echo "round $i: file holds save $got, but the script announced $last (status $status)"; fail=1
  fi
  # An interrupt reported from inside the save means that save did not happen.
  if grep -q "in upvalue 'save_tensors'" "$dir/err" && [ "$got" != "$last" ]; then
    echo "round $i: torch.save raised KeyboardInterrupt, yet its file replaced the old one"; fail=1
  fi
done
echo "save_interrupt: $rounds rounds, $interrupted reported KeyboardInterrupt"
[ "$interrupted" -gt 0 ] || { echo "save_interrupt: no round was interrupted"; fail=1; }
exit "$fail"
