#!/usr/bin/env bash
# Tests of the gpulab command line, REPL, lessons and checker.
# usage: tests/cli/run.sh GPULAB_BINARY
# Prints one line per test, then "N passed, M failed"; exits 1 on any failure.
# The REPL's terminal behaviour (tab completion, Ctrl-C) is tested through
# tmux when it is installed, and skipped with a message otherwise.
set -u

GPULAB=${1:?usage: run.sh GPULAB_BINARY}
GPULAB=$(cd "$(dirname "$GPULAB")" && pwd)/$(basename "$GPULAB")
HERE=$(cd "$(dirname "$0")" && pwd)
FIX=$HERE/fixtures
WORK=$(mktemp -d "${TMPDIR:-/tmp}/gpulab-cli.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export HOME=$WORK/home NO_COLOR=1 GPULAB_LESSONS=$FIX/lessons
unset GPULAB_VIRTUAL_GPUS
# 1 where a real GPU is: the few tests of the no-GPU experience then say what
# a GPU changes, or are skipped (the real GPU's own output is tests/gpu/'s).
REAL_GPU=$("$GPULAB" -e 'io.write(torch.cuda.device_count() > 0 and "1" or "0")' 2>/dev/null)
mkdir -p "$HOME"
cd "$WORK" || exit 1

passed=0
failed=0
OUT=$WORK/out
ERR=$WORK/err
RC=0

# run ARGS...: runs gpulab with stdin from $STDIN (default: empty).
run() {
  "$GPULAB" "$@" <"${STDIN:-/dev/null}" >"$OUT" 2>"$ERR"
  RC=$?
}
pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() {
  failed=$((failed + 1))
  echo "FAIL $1"
  shift
  printf '     %s\n' "$@"
  echo "     --- stdout:"; sed 's/^/     | /' "$OUT"
  echo "     --- stderr:"; sed 's/^/     | /' "$ERR"
}
# expect NAME RC EXPECTED_STDOUT [EXPECTED_STDERR]: exact comparison.
expect() {
  local name=$1 rc=$2 out=$3
  if [[ $RC != "$rc" ]]; then fail "$name" "exit status $RC, expected $rc"; return; fi
  if [[ $(cat "$OUT") != "$out" ]]; then
    fail "$name" "stdout differs:" "$(diff <(printf '%s\n' "$out") "$OUT")"; return
  fi
  if [[ $# -ge 4 && $(cat "$ERR") != "$4" ]]; then
    fail "$name" "stderr differs:" "$(diff <(printf '%s\n' "$4") "$ERR")"; return
  fi
  pass "$name"
}
# expect_grep NAME RC FILE PATTERN...: each (extended) regex occurs in FILE.
expect_grep() {
  local name=$1 rc=$2 file=$3 pattern
  shift 3
  if [[ $RC != "$rc" ]]; then fail "$name" "exit status $RC, expected $rc"; return; fi
  for pattern in "$@"; do
    if ! grep -Eq -- "$pattern" "$file"; then fail "$name" "no match for: $pattern"; return; fi
  done
  pass "$name"
}

# The tests, by what they exercise; each part adds to passed/failed.
for part in basics repl_piped lessons virtual_check terminal; do
  # shellcheck source=/dev/null
  source "$HERE/$part.sh"
done
echo "$passed passed, $failed failed"
[[ $failed == 0 ]]
