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

# ---- version, help, bad options ----
run --version
expect_grep "--version" 0 "$OUT" '^gpulab [0-9]+\.[0-9]+\.[0-9]+$' '^Lua 5\.4\.[0-9]+$' \
  '^BLAS: OpenBLAS [0-9]+\.[0-9]+' '^CUDA: (not compiled in|compiled in \(CUDA runtime [0-9]+\.[0-9]+\); )'
run -v
expect_grep "-v" 0 "$OUT" '^gpulab [0-9.]+$' '^CUDA: '
run --help
expect_grep "--help lists every option and subcommand" 0 "$OUT" '^usage: gpulab' ' -e STMT' ' -i ' \
  ' --virtual-gpus N' ' --seed N' ' --version' ' --help' ' lessons ' ' lesson NAME' ' --echo' \
  ' --step' ' check FILE' 'GPULAB_LESSONS' 'NO_COLOR'
run --no-such-option
expect_grep "unknown option: status 2" 2 "$ERR" "^gpulab: unrecognized option '--no-such-option'" "gpulab --help"
run --seed abc -e 'print(1)'
expect_grep "--seed needs an integer" 2 "$ERR" '^gpulab: --seed needs an integer'
run -e
expect_grep "-e needs an argument" 2 "$ERR" "'-e' needs an argument"
run lesson
expect_grep "lesson needs a NAME" 2 "$ERR" "'lesson' needs a lesson NAME"

# ---- -e and the arg table ----
run -e 'print(1 + 1)' -e 'print("second")'
expect "-e runs statements in order" 0 $'2\nsecond'
run -e'x = 5' -e 'print(x)'
expect "-eSTMT (attached) works" 0 '5'
run -e 'print(#arg, arg[0] ~= nil, arg[1], arg[2])'
expect "arg without a script: options at 1.." 0 $'2\ttrue\t-e\tprint(#arg, arg[0] ~= nil, arg[1], arg[2])'
cat >"$WORK/args.lua" <<'EOF'
print(arg[0], arg[1], arg[2], #arg)
local n, negative = 0, {}
while arg[-(n + 1)] ~= nil do n = n + 1 end
for i = -(n - 1), -1 do negative[#negative + 1] = arg[i] end
print(n, table.concat(negative, ' '))
print(select('#', ...), ...)
EOF
run -e 'x = 1' args.lua one 'two words'
expect "arg table and ... of a script" 0 $'args.lua\tone\ttwo words\t2\n3\t-e x = 1\n2\tone\ttwo words'
run -- args.lua -e
expect "-- ends the options" 0 $'args.lua\t-e\tnil\t1\n2\t--\n1\t-e'
STDIN=$WORK/args.lua run - a
expect "- runs standard input" 0 $'-\ta\tnil\t1\n1\t\n1\ta'

# ---- options that reach the bindings: --seed, --virtual-gpus ----
run --seed 7 -e 'print(torch.rand(3))'
seeded=$(cat "$OUT")
run -e 'torch.manual_seed(7)' -e 'print(torch.rand(3))'
expect "--seed N is torch.manual_seed(N) before the rest" 0 "$seeded"
run --virtual-gpus 2 -e 'print(torch.cuda.device_count())'
expect "--virtual-gpus 2 makes two devices" 0 '2'
run --virtual-gpus=3 -e 'print(torch.cuda.device_count())'
expect "--virtual-gpus=3" 0 '3'
run --virtual-gpus nonsense -e 'print(1)'
expect_grep "bad --virtual-gpus spec: status 2" 2 "$ERR" '^gpulab: .*nonsense'

# ---- warnings go to stderr, once per call site as Python's default filter ----
cat >"$WORK/uint8_mask.lua" <<'EOF'
local x, m = torch.arange(3.), torch.tensor({1, 0, 1}, {dtype = torch.uint8})
for _ = 1, 3 do print(x[m]) end
x[m] = torch.tensor({7., 8.})
print(x)
EOF
run uint8_mask.lua
expect "uint8 mask: deprecation UserWarning on stderr, once per site" 0 \
  $'tensor([0., 2.])\ntensor([0., 2.])\ntensor([0., 2.])\ntensor([7., 1., 8.])' \
  $'UserWarning: indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.\nUserWarning: indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.'

# ---- failing scripts ----
cat >"$WORK/fails.lua" <<'EOF'
print('started')
local function inner() error('something broke') end
inner()
EOF
run fails.lua
expect_grep "failing script: status 1, message and traceback" 1 "$ERR" \
  '^gpulab: fails.lua:2: something broke$' '^stack traceback:' 'fails.lua:3: in main chunk'
grep -q '^started$' "$OUT" || fail "failing script still printed before the error"
run -e 'error(setmetatable({}, {__tostring = function() return "custom error object" end}))'
expect_grep "error object with __tostring" 1 "$ERR" '^gpulab: custom error object$'
run -e 'error({})'
expect_grep "error object without __tostring" 1 "$ERR" '^gpulab: \(error object is a table value\)$'
run -e 'error("RuntimeError: Expected all tensors to be on the same device\nhint: use :to()", 0)'
expect_grep "binding-style error printed as it is" 1 "$ERR" \
  '^gpulab: RuntimeError: Expected all tensors to be on the same device$' '^hint: use :to\(\)$'
run -e 'os.exit(3)'
expect "os.exit status" 3 ''
run no_such_file.lua
expect_grep "missing script" 1 "$ERR" '^gpulab: cannot open no_such_file.lua'
echo 'x = = 1' >"$WORK/syntax.lua"
run syntax.lua
expect_grep "syntax error in a script" 1 "$ERR" "^gpulab: syntax.lua:1: unexpected symbol near '='"
run -e 'print("before")' -e 'error("in -e")' -e 'print("not reached")'
expect_grep "-e error stops with status 1" 1 "$ERR" '^gpulab: \(command line\):1: in -e$'
[[ $(cat "$OUT") == before ]] || fail "-e statements after an error do not run"

# ---- the REPL on piped input ----
cat >"$WORK/repl_in" <<'EOF'
1 + 2
x = 10
x
x * 2;
"abc"
for i = 0, 1 do
  print('loop', i)
end
(1 +
 2)
error('boom')
print('still running', x)
local y = 1

y
return 4, 5
!echo from the shell
undefined_function()
x
EOF
STDIN=$WORK/repl_in run
expect "REPL: echo, ';', multi-line, errors, !cmd" 0 \
">>> 3
>>> >>> 10
>>> >>> 'abc'
>>> ... ... loop	0
loop	1
>>> ... 3
>>> >>> still running	10
>>> >>> >>> nil
>>> 4
5
>>> from the shell
>>> >>> 10
>>> " \
"stdin:1: boom
stdin:1: attempt to call a nil value (global 'undefined_function')"
printf 'print("x")\nfor i = 1, 2 do\n' >"$WORK/repl_eof"
STDIN=$WORK/repl_eof run
expect_grep "REPL: end of input inside a statement" 0 "$ERR" "^stdin:1: 'end' expected near <eof>$"
printf 'x\n' >"$WORK/repl_i"
STDIN=$WORK/repl_i run -e 'x = 42' -i
expect "-i enters the REPL after -e" 0 $'>>> 42\n>>> '
STDIN=$WORK/repl_i run -e 'x = 42'
expect "-e alone does not start the REPL" 0 ''
printf 'print(arg[0])\n' >"$WORK/script_i.lua"
STDIN=$WORK/repl_i run -i script_i.lua
expect "-i enters the REPL after a script" 0 $'script_i.lua\n>>> nil\n>>> '

# ---- lessons ----
run lessons
expect "lessons: sorted, with titles, grouped by tutorial" 0 \
"  01_basics    Basics: echo and print
  02_error     An error stops the lesson
  03_untitled
  10_pcall     Showing an error on purpose

Course One
  a1_first     § 1: First steps
  a2_next      § 2: Next steps

Course Two
  b1_other     § 5.1: Elsewhere

Run one with: gpulab lesson NAME [--echo] [--step]"
run lesson 01_basics
expect "lesson runs cells: echo, print, ';'" 0 $'3\ngpulab\n6\n60'
run lesson 01_basics.lua --echo
expect "lesson --echo prints a notebook transcript" 0 \
">>> 1 + 2
3
>>> local s = 'gpu'   -- a comment after code stays
... print(s .. 'lab')
gpulab
>>> 40 + 2;
>>> total = 0
... for i = 0, 3 do
...   total = total + i
... end
... print(total)
6
>>> total * 10
60"
run lesson 01 --step
expect "lesson by unique prefix; --step does not wait without a terminal" 0 $'3\ngpulab\n6\n60'
run lesson 0
expect_grep "ambiguous lesson prefix" 1 "$ERR" "^gpulab: lesson name '0' is ambiguous: 01_basics 02_error 03_untitled$"
run lesson nope
expect_grep "unknown lesson" 1 "$ERR" "^gpulab: no lesson named 'nope'"
run lesson 02_error
expect "an error stops the lesson (line numbers of the file)" 1 'before' '02_error.lua:5: cell failed'
run lesson 10
expect "lesson showing an error with pcall" 0 $'false\tshown on purpose\n\'still running\''
run lesson "$FIX/lessons/03_untitled.lua"
expect "lesson by path; arg[0] is set" 0 $'no title line\ntrue'
GPULAB_LESSONS=$WORK/none run lessons
expect_grep "missing lessons directory" 1 "$ERR" '^gpulab: no lessons directory found'
# GPULAB_DATA names the data directory (lessons/ inside it); an installed binary
# finds PREFIX/share/gpulab/lessons (tests/package/check.sh tests that).
mkdir -p "$WORK/data" && cp -r "$FIX/lessons" "$WORK/data/lessons"
GPULAB_LESSONS= GPULAB_DATA=$WORK/data run lesson nope
expect_grep "GPULAB_DATA" 1 "$ERR" "^gpulab: no lesson named 'nope' in $WORK/data/lessons "
GPULAB_LESSONS= GPULAB_DATA=$WORK/data run lesson 01
expect_grep "GPULAB_DATA: runs a lesson" 0 "$OUT" '.'

# ---- doctor ----
run doctor --virtual-gpus 2
expect_grep "doctor: every kernel family on each device, then a verdict" 0 "$OUT" \
  '^cuda:1: .*\(virtual\)$' '^  elementwise +ok' '^  reduction +ok' '^  matmul +ok' '^  copy +ok' '^  random +ok' \
  "^Lessons: [0-9]+ in $FIX/lessons, 1 exercises$" '^Verdict: OK: 2 devices checked, 10 kernel checks passed'
[[ $(grep -c ' ok (' "$OUT") == 10 ]] && pass "doctor: 5 families x 2 devices" || fail "doctor: 5 families x 2 devices" "$(grep -c ' ok (' "$OUT") checks"
GPULAB_LESSONS=$WORK/none run doctor
expect_grep "doctor: no lessons is a failure (exit 1)" 1 "$OUT" '^Lessons: not found$' '^Verdict: FAILED: 1 problem; first: no lessons directory'
run doctor --json
if [[ $RC == 0 ]] && command -v python3 >/dev/null &&
   python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["ok"] and len(r["devices"])>0 and len(r["checks"])==5*len(r["devices"]) and all(c["ok"] for c in r["checks"]) and r["lessons"]>0' "$OUT"; then
  pass "doctor --json: one JSON object (one virtual device without a GPU)"
else
  fail "doctor --json" "exit $RC, or not the JSON expected"
fi
GPULAB_LESSONS=$WORK/none run doctor --json
expect_grep "doctor --json: a failure" 1 "$OUT" '"ok": false' '"failures": \["no lessons directory'
run doctor extra
expect_grep "doctor takes no argument" 2 "$ERR" "unexpected argument 'extra' for 'doctor'"

# ---- check ----
run check "$FIX/solutions/good/square.lua"
expect "check: PASS" 0 $'computed\t49\nPASS'
run check "$FIX/solutions/bad/square.lua"
expect "check: failed checks" 1 $'FAIL: square(3) should be 9\nFAIL: answer should be 49, got 14'
run check "$FIX/lessons/exercises/square.lua"
expect "check: the blank left in" 1 $'FAIL: square(3) should be 9\nFAIL: answer should be 49, got nil'
run check "$FIX/solutions/broken/square.lua"
expect_grep "check: learner's code raises" 1 "$OUT" \
  "^FAIL: your code raised an error: .*square.lua:2: attempt to perform arithmetic on a nil value"
run check "$FIX/solutions/nearby/cube.lua"
expect "check: checker next to the file; check() restored" 1 'FAIL: this check always fails'
echo 'print(1)' >"$WORK/orphan.lua"
run check orphan.lua
expect_grep "check: no checker" 1 "$ERR" '^gpulab: no checker for orphan.lua'

# ---- the REPL in a terminal (tmux) ----
if ! command -v tmux >/dev/null 2>&1; then
  echo "skip terminal tests: tmux is not installed"
else
  SOCK=gpulab-cli-$$
  T="tmux -L $SOCK"
  screen() { $T capture-pane -p -t cli 2>/dev/null; }
  # wait_for PATTERN: polls the screen for up to 10 s.
  wait_for() {
    local i
    for i in $(seq 100); do
      if screen | grep -Eq -- "$1"; then return 0; fi
      sleep 0.1
    done
    return 1
  }
  tfail() { : >"$OUT"; screen >"$ERR"; fail "$@"; }
  if ! $T new-session -d -s cli -x 120 -y 40 \
      "env TERM=xterm HOME=$HOME NO_COLOR=1 '$GPULAB'; echo EXITED=\$?; sleep 60" 2>/dev/null; then
    echo "skip terminal tests: tmux cannot start a session here"
  elif wait_for '^>>> ?$'; then
    if screen | grep -q '^gpulab [0-9.]* (Lua 5.4)' && screen | grep -q 'Ctrl-D to exit'; then
      pass "terminal: banner"
    else
      tfail "terminal: banner" "no banner"
    fi
    $T send-keys -t cli 'zz_completion_target = 7' Enter
    wait_for '^>>> ?$' && sleep 0.2
    $T send-keys -t cli 'zz_completion_ta'
    sleep 0.2
    $T send-keys -t cli Tab
    sleep 0.3
    $T send-keys -t cli Enter
    if wait_for '^7$'; then pass "terminal: tab completion"; else tfail "terminal: tab completion" "no 7"; fi
    $T send-keys -t cli 'while true do end' Enter
    sleep 0.5
    $T send-keys -t cli C-c
    if wait_for '^KeyboardInterrupt$'; then
      $T send-keys -t cli '6 * 7' Enter
      if wait_for '^42$'; then pass "terminal: Ctrl-C interrupts running code"
      else tfail "terminal: Ctrl-C interrupts running code" "no prompt after it"; fi
    else
      tfail "terminal: Ctrl-C interrupts running code" "no KeyboardInterrupt"
    fi
    $T send-keys -t cli 'this line is dropped'
    sleep 0.2
    $T send-keys -t cli C-c
    sleep 0.2
    $T send-keys -t cli '1 + 1' Enter
    if wait_for '^2$' && ! screen | grep -q 'syntax'; then pass "terminal: Ctrl-C at the prompt clears the line"
    else tfail "terminal: Ctrl-C at the prompt clears the line"; fi
    $T send-keys -t cli C-d
    if wait_for '^EXITED=0$'; then pass "terminal: Ctrl-D exits with status 0"
    else tfail "terminal: Ctrl-D exits with status 0"; fi
    if grep -q 'zz_completion_target' "$HOME/.gpulab_history" 2>/dev/null; then pass "terminal: history saved"
    else tfail "terminal: history saved" "no ~/.gpulab_history entry"; fi
  else
    tfail "terminal: REPL starts" "no prompt"
  fi
  $T kill-server 2>/dev/null
fi

echo "$passed passed, $failed failed"
[[ $failed == 0 ]]
