#!/usr/bin/env bash
# Usage: check_exercises.sh GPULAB
# For every exercise lessons/exercises/NAME.lua (with its checker NAME.check.lua):
#   - the unmodified blank must FAIL `gpulab check`,
#   - the reference solution lessons/exercises/solutions/NAME.lua must PASS.
# For every typical mistake tests/lessons/exercise_mistakes/NAME.WHAT.lua, whose
# first line is "-- expect: MESSAGE", the checker must FAIL and print MESSAGE.
# Runs with two virtual GPUs and seed 0; prints "N passed, M failed".
set -u
if [ $# -ne 1 ]; then
  echo "usage: $0 GPULAB" >&2
  exit 2
fi
gpulab=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lessons=$(cd "$here/../../lessons" && pwd)
exercises="$lessons/exercises"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

run_check() {  # FILE -> output in $out, status in $rc
  out=$(cd "$tmp" && GPULAB_LESSONS="$lessons" NO_COLOR=1 \
    "$gpulab" check "$1" --virtual-gpus 2 --seed 0 2>&1)
  rc=$?
}
ok() { passed=$((passed + 1)); echo "ok    $1"; }
bad() { failed=$((failed + 1)); echo "FAIL  $1"; printf '%s\n' "$out" | sed 's/^/      /'; }

shopt -s nullglob
for blank in "$exercises"/*.lua; do
  case $blank in *.check.lua) continue ;; esac
  name=$(basename "$blank" .lua)
  if [ ! -f "$exercises/$name.check.lua" ]; then
    out="no checker $exercises/$name.check.lua"; bad "$name: checker"; continue
  fi
  run_check "$blank"
  if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q '^FAIL'; then
    ok "$name: the blank fails its check"
  else
    bad "$name: the blank should fail its check"
  fi
  solution="$exercises/solutions/$name.lua"
  if [ ! -f "$solution" ]; then
    out="no reference solution $solution"; bad "$name: solution"; continue
  fi
  run_check "$solution"
  if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^PASS'; then
    ok "$name: the solution passes"
  else
    bad "$name: the solution should pass"
  fi
done

for mistake in "$here"/exercise_mistakes/*.lua; do
  file=$(basename "$mistake" .lua)
  name=${file%%.*}
  expect=$(sed -n '1s/^-- expect: //p' "$mistake")
  cp "$mistake" "$tmp/$name.lua"   # the checker is found by the exercise's name
  run_check "$tmp/$name.lua"
  rm -f "$tmp/$name.lua"
  if [ $rc -ne 0 ] && [ -n "$expect" ] && printf '%s\n' "$out" | grep -qF "FAIL: $expect"; then
    ok "$file: says '$expect'"
  else
    bad "$file: should fail with '$expect'"
  fi
done

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
