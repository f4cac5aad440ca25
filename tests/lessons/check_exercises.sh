#!/usr/bin/env bash
# Usage: check_exercises.sh GPULAB
# For every exercise lessons/exercises/NAME.lua (with its checker NAME.check.lua):
#   - the unmodified starter must FAIL `gpulab check` (two virtual GPUs),
#   - the reference solution lessons/exercises/solutions/NAME.lua must PASS
#     with two virtual GPUs and with one (unless the checker says
#     "-- needs: 2 GPUs"), and without any GPU it must be told how to run the
#     check (NOT CHECKED ... --virtual-gpus), never blamed (or PASS when the
#     exercise needs no GPU).
# For every typical mistake tests/lessons/exercise_mistakes/NAME.WHAT.lua, whose
# first line is "-- expect: MESSAGE" (and an optional second line
# "-- args: OPTIONS", default --virtual-gpus 2), the check must fail with a
# FAIL (or NOT CHECKED) line containing MESSAGE. Every file is checked under another name (my_attempt.lua), so
# the checker is found by the exercise named inside the file.
# Prints "N passed, M failed".
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

# FILE OPTIONS... -> output in $out, status in $rc. The file is checked as a
# renamed copy. Without --virtual-gpus, real GPUs are hidden so that "no GPU"
# means none; with it, virtual devices stay in host memory beside a real GPU.
run_check() {
  local file=$1
  shift
  local hide=(GPULAB_EMULATE_GPUS=1)
  case " $* " in *" --virtual-gpus "*) ;; *) hide=(CUDA_VISIBLE_DEVICES=) ;; esac
  cp "$file" "$tmp/my_attempt.lua"
  out=$(cd "$tmp" && env -u GPULAB_VIRTUAL_GPUS "${hide[@]}" GPULAB_LESSONS="$lessons" NO_COLOR=1 \
    "$gpulab" check my_attempt.lua "$@" --seed 0 2>&1)
  rc=$?
  rm -f "$tmp/my_attempt.lua"
}
ok() { passed=$((passed + 1)); echo "ok    $1"; }
bad() { failed=$((failed + 1)); echo "FAIL  $1"; printf '%s\n' "$out" | sed 's/^/      /'; }
passes() { [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q '^PASS'; }

shopt -s nullglob
for blank in "$exercises"/*.lua; do
  case $blank in *.check.lua) continue ;; esac
  name=$(basename "$blank" .lua)
  checker="$exercises/$name.check.lua"
  if [ ! -f "$checker" ]; then
    out="no checker $checker"; bad "$name: checker"; continue
  fi
  if ! head -1 "$blank" | grep -qx -- "-- exercise: $name"; then
    out=$(head -1 "$blank"); bad "$name: the starter's first line should be '-- exercise: $name'"
  fi
  needs=$(sed -n 's/^-- needs: \([0-9]*\) GPUs*.*/\1/p' "$checker" | head -1)
  needs=${needs:-0}
  run_check "$blank" --virtual-gpus 2
  if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q '^FAIL'; then
    ok "$name: the starter fails its check"
  else
    bad "$name: the starter should fail its check"
  fi
  solution="$exercises/solutions/$name.lua"
  if [ ! -f "$solution" ]; then
    out="no reference solution $solution"; bad "$name: solution"; continue
  fi
  for gpus in 2 1; do
    [ "$needs" -gt "$gpus" ] && continue
    run_check "$solution" --virtual-gpus "$gpus"
    if passes; then ok "$name: the solution passes with $gpus GPU(s)"
    else bad "$name: the solution should pass with $gpus GPU(s)"; fi
  done
  run_check "$solution"
  if [ "$needs" -eq 0 ]; then
    if passes; then ok "$name: the solution passes without a GPU"
    else bad "$name: the solution should pass without a GPU"; fi
  elif [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q "^NOT CHECKED: .*--virtual-gpus [0-9]" &&
       ! printf '%s\n' "$out" | grep -q '^FAIL'; then
    ok "$name: without a GPU the solution is told how to run the check"
  else
    bad "$name: without a GPU the solution should be told to use --virtual-gpus, not blamed"
  fi
done

# Every lesson has an exercise: its prefix (a4, d8) is named in the
# "(lesson a4)" / "(lessons b1, b2)" part of some starter's title line.
titles=$(for f in "$exercises"/*.lua; do case $f in *.check.lua) ;; *) sed -n 2p "$f" ;; esac; done)
for lesson in "$lessons"/[a-z][0-9]*_*.lua; do
  prefix=$(basename "$lesson" | sed 's/_.*//')
  if printf '%s\n' "$titles" | grep -Eq "\(lessons? ([a-z][0-9], )*$prefix[,)]"; then
    ok "$(basename "$lesson" .lua): has an exercise"
  else
    out="no exercise title names ($prefix)"; bad "$(basename "$lesson" .lua): has no exercise"
  fi
done

for mistake in "$here"/exercise_mistakes/*.lua; do
  file=$(basename "$mistake" .lua)
  expect=$(sed -n '1s/^-- expect: //p' "$mistake")
  read -r -a args <<< "$(sed -n '2s/^-- args: //p' "$mistake")"
  [ ${#args[@]} -eq 0 ] && args=(--virtual-gpus 2)
  run_check "$mistake" "${args[@]}"
  if [ $rc -ne 0 ] && [ -n "$expect" ] &&
     printf '%s\n' "$out" | grep -E '^(FAIL|NOT CHECKED): ' | grep -qF -- "$expect"; then
    ok "$file: says '$expect'"
  else
    bad "$file: should fail with '$expect'"
  fi
done

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
