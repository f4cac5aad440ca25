#!/usr/bin/env bash
# Ctrl-C never leaves grad mode off (Note [Guard window]). A script enters and
# leaves `local _ <close> = torch.no_grad()` in a tight loop; a real SIGINT lands
# at a random moment; with -i the REPL then reads `print(torch.is_grad_enabled())`
# from stdin, which must say true. Before the fix most rounds said false: the
# interrupt struck as the guard's C function returned, before <close> held it.
# Usage: grad_guard_interrupt.sh path/to/gpulab [rounds]
set -u
gpulab="$1"
rounds="${2:-20}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
set -m  # background jobs get their own process group and default SIGINT handling

cat >"$dir/loop.lua" <<'LUA'
local n = 0
while true do
  local _ <close> = torch.no_grad()
  n = n + 1
  if n == 1 then io.write('looping\n') io.flush() end
end
LUA
echo 'print(torch.is_grad_enabled())' >"$dir/after.txt"

fail=0
for ((i = 1; i <= rounds; i++)); do
  rm -f "$dir/out" "$dir/err"
  "$gpulab" -i "$dir/loop.lua" <"$dir/after.txt" >"$dir/out" 2>"$dir/err" &
  pid=$!
  for ((t = 0; t < 100; t++)); do grep -q looping "$dir/out" 2>/dev/null && break; sleep 0.05; done
  sleep "0.0$((RANDOM % 10))"
  kill -INT "$pid" 2>/dev/null
  for ((t = 0; t < 100; t++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "round $i: gpulab still running 10 s after SIGINT"; kill -KILL "$pid"; fail=1
  fi
  wait "$pid" 2>/dev/null
  if ! grep -q KeyboardInterrupt "$dir/err"; then
    echo "round $i: no KeyboardInterrupt"; cat "$dir/err"; fail=1
  elif ! grep -qx true "$dir/out"; then
    echo "round $i: grad mode left off after the interrupt:"; cat "$dir/err"; fail=1
  fi
done
echo "grad_guard_interrupt: $rounds rounds"
exit "$fail"
