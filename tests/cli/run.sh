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

# ---- Note [Idle workers sleep]: the wait policy is in place before libgomp reads it ----
# (the dynamic loader's own account of the order it initialises libraries in)
LD_DEBUG=files "$GPULAB" -e '' </dev/null >"$OUT" 2>"$ERR"
RC=$?
policy_at=$(grep 'calling init:' "$ERR" | grep -n 'libgpulab_omp_policy' | cut -d: -f1)
gomp_at=$(grep 'calling init:' "$ERR" | grep -n 'libgomp' | cut -d: -f1)
if [[ $RC == 0 && -n $policy_at && -n $gomp_at && $policy_at -lt $gomp_at ]]; then
  pass "the OpenMP wait policy's library is initialised before libgomp"
else
  fail "the OpenMP wait policy's library is initialised before libgomp" "policy at ${policy_at:-none}, libgomp at ${gomp_at:-none}"
fi
run doctor
expect_grep "doctor: an idle OpenMP worker spins briefly, then sleeps, by default" 0 "$OUT" '^OpenMP: GOMP_SPINCOUNT=[0-9]+ \(gpulab.s default: an idle worker spins about [0-9]+ us'
OMP_WAIT_POLICY=active run doctor
expect_grep "doctor: the user's OMP_WAIT_POLICY is kept" 0 "$OUT" '^OpenMP: OMP_WAIT_POLICY=active \(your setting\)'
run --help
expect_grep "--help lists every option and subcommand" 0 "$OUT" '^usage: gpulab' ' -e STMT' ' -i ' \
  ' --virtual-gpus N' ' --seed N' ' --version' ' --help' ' lessons ' ' lesson NAME' ' --quiet' \
  ' --step' ' check FILE' 'GPULAB_LESSONS' 'NO_COLOR' 'cell lines' 'is a lesson'
# --help and the man page agree: each subcommand of the usage lines is in the
# man page's SYNOPSIS, and each option and environment variable --help names
# is in the man page.
man_page=$HERE/../../doc/gpulab.1
if [[ -f $man_page ]]; then
  man_text=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$man_page")
  synopsis=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH DESCRIPTION/p' <<<"$man_text")
  missing=()
  while read -r sub; do
    grep -qE -- "^\.B gpulab $sub( |\$)" <<<"$synopsis" || missing+=("synopsis: gpulab $sub")
  done < <(sed -n '1,/^$/s/^\(usage:\)\{0,1\} *gpulab \([a-z]\{1,\}\( install\)\{0,1\}\)\( .*\)\{0,1\}$/\2/p' "$OUT" | sort -u)
  while read -r word; do
    grep -qE -- "(^|[^a-zA-Z_-])$word([^a-zA-Z_-]|\$)" <<<"$man_text" || missing+=("$word")
  done < <(grep -oE -- '(^|[][ |])--?[a-z][a-z-]*|\b(GPULAB_[A-Z_]+|NO_COLOR)\b' "$OUT" | sed 's/^[][ |]//' | sort -u)
  if [[ ${#missing[@]} = 0 && -n $synopsis ]]; then pass "--help and doc/gpulab.1 agree"
  else fail "--help and doc/gpulab.1 agree" "the man page lacks: ${missing[*]}"; fi
fi
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
# As `python3 -`: no prompts, and the first error ends the input with status 1.
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
y = 1

y
return 4, 5
!echo from the shell
error('boom')
print('not reached')
EOF
STDIN=$WORK/repl_in run
expect "REPL piped: echo, ';', multi-line, !cmd, no prompts; stops at the first error" 1 \
"3
10
'abc'
loop	0
loop	1
3
1
4
5
from the shell"
expect_grep "REPL piped: the error that stopped it" 1 "$ERR" 'boom'
printf 'x = (\n1 +\n= 2\nprint("not reached")\n' >"$WORK/repl_syntax"
STDIN=$WORK/repl_syntax run
expect_grep "REPL piped: a syntax error stops it too" 1 "$ERR" "unexpected symbol near '='"
[[ ! -s $OUT ]] || fail "REPL piped: nothing runs after a syntax error"
printf 'print("x")\nfor i = 1, 2 do\n' >"$WORK/repl_eof"
STDIN=$WORK/repl_eof run
expect_grep "REPL: end of input inside a statement" 1 "$ERR" "'end' expected near <eof>$"
printf 'for i = 1, 2 do\n\n\nprint("after")\nerror("second")\nprint("still")\n' >"$WORK/repl_blank"
STDIN=$WORK/repl_blank run -i
expect "REPL -i piped: two blank lines leave a continuation; errors do not stop -i" 0 $'after\nstill'
expect_grep "REPL -i piped: the continuation's parse error" 0 "$ERR" "'end' expected .*near <eof>" 'second'
# `!nvidia-smi` with no nvidia-smi on PATH shows gpulab's table; a real one runs.
mkdir -p "$WORK/nosmi" "$WORK/fakesmi"
printf '!nvidia-smi\n' >"$WORK/repl_smi"
STDIN=$WORK/repl_smi PATH=$WORK/nosmi run --virtual-gpus 1
expect_grep "REPL: !nvidia-smi without the tool shows gpulab's table" 0 "$OUT" \
  "^\(no nvidia-smi here: this is gpulab's emulation of its table" '^\| gpulab-smi \(virtual GPUs, no driver\) +Driver Version: N/A' \
  '^\| Processes: ' '^\|  No running processes found '
printf '#!/bin/sh\necho the real nvidia-smi\n' >"$WORK/fakesmi/nvidia-smi"
chmod +x "$WORK/fakesmi/nvidia-smi"
STDIN=$WORK/repl_smi PATH=$WORK/fakesmi:$PATH run --virtual-gpus 1
expect "REPL: !nvidia-smi runs the installed tool" 0 'the real nvidia-smi'
printf 'x\n' >"$WORK/repl_i"
STDIN=$WORK/repl_i run -e 'x = 42' -i
expect "-i enters the REPL after -e" 0 '42'
STDIN=$WORK/repl_i run -e 'x = 42'
expect "-e alone does not start the REPL" 0 ''
printf 'print(arg[0])\n' >"$WORK/script_i.lua"
STDIN=$WORK/repl_i run -i script_i.lua
expect "-i enters the REPL after a script" 0 'script_i.lua'
expect_grep "-i: the REPL's own errors (here an undefined name) do not stop it" 0 "$ERR" "^NameError: name 'x' is not defined$"
printf 'x = 5\nerror("script failed")\n' >"$WORK/script_fails_i.lua"
STDIN=$WORK/repl_i run -i script_fails_i.lua
expect "-i enters the REPL after a script error (python -i)" 0 '5'
expect_grep "-i: the script's error is shown" 0 "$ERR" 'script failed'

# ---- timing magics ----
# IPython's _format_time writes 999.6 ns as "1e+03 ns" (its %.3g at a unit's edge), and so does
# gpulab: CPU times, counted in whole microseconds, land there often.
NUM='[0-9.]+(e\+[0-9]+)?'
printf '%%time 6 * 7\n%%time y = 2;\n%%timeit for i = 1, 300 do end\n%%timing on\n1 + 1\n%%timing off\n2 + 2\n' >"$WORK/repl_time"
STDIN=$WORK/repl_time run
expect_grep "%time, %timeit, %timing" 0 "$OUT" \
  "^CPU times: user $NUM (ns|µs|ms|s), sys: $NUM (ns|µs|ms|s), total: $NUM (ns|µs|ms|s)\$" \
  "^Wall time: $NUM (ns|µs|ms|s) \\(monotonic clock\\)\$" '^42$' \
  "^$NUM (ns|µs|ms) ± $NUM (ns|µs|ms) per loop \\(mean ± std\\. dev\\. of 7 runs, [0-9,]+ loops each\\)\$" \
  '^Timing of every command is on' '^2$' '^4$'
[[ $(grep -c '^Wall time' "$OUT") == 3 ]] || fail "%timing on times exactly the commands while on"
[[ $(sed -n 4p "$OUT") == CPU* && $(sed -n 6p "$OUT") == *'per loop'* ]] || fail "%time STMT; echoes nothing"
loops=$(grep -o '[0-9,]* loops each' "$OUT" | tr -d ,)
[[ ${loops%% *} -ge 1000 ]] || fail "%timeit of a fast statement runs many loops (got $loops)"
printf '%%time 1\n' >"$WORK/repl_time_gpu"
STDIN=$WORK/repl_time_gpu run --virtual-gpus 2
expect_grep "%time says that it synchronised the devices" 0 "$OUT" \
  '^Wall time: .* \(monotonic clock, 2 CUDA devices synchronized\)$'
printf '%%timeit error("in timeit")\nprint("not reached")\n' >"$WORK/repl_time_err"
STDIN=$WORK/repl_time_err run
expect_grep "%timeit of a failing statement is an error" 1 "$ERR" 'in timeit'
printf '%%timeit -n 3 -r 2 n_calls = (n_calls or 0) + 1\nn_calls\n' >"$WORK/repl_timeit_n"
STDIN=$WORK/repl_timeit_n run
expect_grep "%timeit -n 3 -r 2: 3 loops in each of 2 runs" 0 "$OUT" \
  '^.* per loop \(mean ± std\. dev\. of 2 runs, 3 loops each\)$' '^6$'
printf '%%timeit\n' >"$WORK/repl_timeit_empty"
STDIN=$WORK/repl_timeit_empty run
expect_grep "%timeit without a statement" 1 "$ERR" '^UsageError: %timeit needs a statement'
printf '%%bogus 1\n' >"$WORK/repl_magic_err"
STDIN=$WORK/repl_magic_err run
expect_grep "unknown magic" 1 "$ERR" "^UsageError: unknown magic '%bogus 1'"

# ---- lessons ----
GPULAB_VIRTUAL_GPUS=1 run lessons
expect "lessons: sorted, with titles, grouped by tutorial" 0 \
"  01_basics       Basics: echo and print
  02_error        An error stops the lesson
  03_untitled
  04_devices      Devices a lesson asks for (2 GPUs)
  05_continues    Continuing another lesson
  06_bound_error  An error raised by the library
  10_pcall        Showing an error on purpose

Course One
  a1_first        § 1: First steps
  a2_next         § 2: Next steps

Course Two
  b1_other        § 5.1: Elsewhere

Run one with: gpulab lesson NAME [--step] [-i] [--quiet]

Exercises (gpulab exercise NAME copies one here; gpulab check FILE grades it)
  square        Exercise: define square(x) that returns x * x, and set \`answer\` to square(7).
  twice_on_gpu  Double a tensor where it lives"
NOTEBOOK_01="Basics: echo and print
======================

[1/5] Expressions echo their value

>>> 1 + 2
3

[2/5] Statements run; print writes

>>> local s = 'gpu'   -- a comment after code stays
... -- a comment-only line is not echoed
... print(s .. 'lab')
gpulab

[3/5] A trailing semicolon hides the echo

>>> 40 + 2;

[4/5]

>>> total = 0
... for i = 0, 3 do
... 
...   total = total + i
... end
... print(total)
6

[5/5] Globals carry over from cell to cell

>>> total * 10
60"
run lesson 01_basics
expect "lesson by name: a notebook of title, headings, code and output" 0 "$NOTEBOOK_01"
run lesson 01_basics.lua --echo
expect "lesson --echo (kept for old commands) is the notebook" 0 "$NOTEBOOK_01"
run lesson 01_basics --quiet
expect "lesson --quiet: only the output" 0 $'3\ngpulab\n6\n60'
run "$FIX/lessons/01_basics.lua"
expect "a file with cells runs as a lesson" 0 "$NOTEBOOK_01"
printf -- '-- %%%% Cell one\nx = {device = "cuda:0"}\nx.device\n-- %%%% Cell two\nprint(#arg, arg[0])\n' >"$WORK/bare.lua"
run bare.lua
expect "lesson file: a bare last expression echoes (no syntax error)" 0 \
"bare.lua
========

[1/2] Cell one

>>> x = {device = \"cuda:0\"}
... x.device
'cuda:0'

[2/2] Cell two

>>> print(#arg, arg[0])
0	bare.lua"
run lesson 04_devices --quiet --virtual-gpus 1
expect_grep "fewer devices than declared: said up front" 0 "$OUT" \
  '^Note: this lesson is written for 2 GPUs and runs here with 1 virtual GPU:$' \
  'the cells that need more say what 2 would show\. To see it all:$' '^      gpulab lesson 04_devices --virtual-gpus 2$' '^1$'
run lesson 04_devices --virtual-gpus 3
expect "enough devices: no note; prose with markdown, plain" 0 \
"Devices a lesson asks for
=========================

[1/1] Counting them

The runner provides *two* devices, or says what happens with fewer:
- virtual ones where there is no GPU
- \`--virtual-gpus N\` to choose

>>> torch.cuda.device_count()
3"
run lesson 05_continues
expect "continues: the other lesson runs first, its output hidden" 0 \
"Continuing another lesson
=========================
Note: this lesson continues 01_basics: their code ran first (quietly),
      so what they defined is here.

[1/1] Its globals are here, its output was not shown

>>> total * 100
600"
run lesson 01 --step
expect "lesson by unique prefix; --step does not wait without a terminal" 0 "$NOTEBOOK_01"
printf 'total + 1\nx_from_repl = 5\nx_from_repl\n' >"$WORK/lesson_i"
STDIN=$WORK/lesson_i run lesson 01_basics --quiet -i
expect "lesson -i: the REPL afterwards, with the lesson's variables" 0 \
$'3\ngpulab\n6\n60\n\nThe lesson\'s variables are yours to try: Ctrl-D leaves.\n7\n5'
STDIN=$WORK/lesson_i run -i "$FIX/lessons/05_continues.lua"
expect_grep "gpulab -i LESSON_FILE: the REPL afterwards, with its variables" 0 "$OUT" '^600$' '^7$' '^5$'
printf 'print("in the REPL")\n' >"$WORK/lesson_i_err"
STDIN=$WORK/lesson_i_err run lesson 02_error --quiet -i
expect_grep "lesson -i after an error: the REPL still starts" 1 "$OUT" '^in the REPL$'
run lesson 0
expect_grep "ambiguous lesson prefix" 1 "$ERR" "^gpulab: lesson name '0' is ambiguous: 01_basics 02_error 03_untitled 04_devices 05_continues 06_bound_error$"
run lesson nope
expect_grep "unknown lesson" 1 "$ERR" "^gpulab: no lesson named 'nope'"
run lesson 02_error --quiet
expect "an error names its cell and the line of the file" 1 'before' \
  $'error in cell 2/3 (02_error.lua, line 5):\ncell failed'
run lesson 06_bound_error --quiet
expect "an error raised in the library names the cell's title and line" 1 '' \
  $'error in cell 2/2 "Mixing shapes" (06_bound_error.lua, line 5):\nRuntimeError: The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0'
run "$FIX/lessons/02_error.lua"
expect_grep "a lesson file run as a script names the cell too" 1 "$ERR" '^error in cell 2/3 \(02_error.lua, line 5\):$'
run lesson 10 --quiet
expect "lesson showing an error with pcall" 0 $'false\tshown on purpose\n\'still running\''
run lesson "$FIX/lessons/03_untitled.lua" --quiet
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
  "^Lessons: [0-9]+ in $FIX/lessons, 2 exercises$" '^Verdict: OK: 2 devices checked, 10 kernel checks passed'
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

# ---- no GPU: the runner says how, and provides what a lesson needs ----
run -e 'io.write(tostring(torch.cuda.is_available()))'
if [[ $(cat "$OUT") != false ]]; then
  echo "skip no-GPU tests: this machine has a CUDA device"
else
  run lessons
  expect_grep "lessons without a GPU: how to run the course, once, up front" 0 "$OUT" \
    '^No GPU on this machine: the course runs on virtual GPUs emulated in host memory\.$' \
    'torch\.cuda\.use_virtual\(N\) in the REPL' '^  01_basics '
  [[ $(grep -c 'No GPU' "$OUT") == 1 ]] || fail "the no-GPU advice is printed once"
  run lessons --virtual-gpus 2
  expect_grep "lessons --virtual-gpus N: no advice needed" 0 "$OUT" '^  01_basics '
  ! grep -q 'No GPU' "$OUT" || fail "lessons --virtual-gpus N: no advice needed" "the advice was printed"
  run lesson 04_devices --quiet
  expect "lesson needing 2 GPUs without a GPU: two virtual ones, said once" 0 \
"Note: this machine has no GPU, so this lesson runs on 2 virtual GPUs
      emulated in host memory (as \`gpulab --virtual-gpus 2\` gives).
      They print what GPUs print; their timings are CPU timings.
      In the REPL: torch.cuda.use_virtual(2) before the first CUDA use.
2"
  run "$FIX/lessons/04_devices.lua"
  expect_grep "a lesson file needing GPUs gets them too" 0 "$OUT" '^Note: this machine has no GPU' '^2$'
  run -e 'torch.ones(1, {device = "cuda"})'
  expect_grep "no GPU, no virtual devices: the error says how" 1 "$ERR" \
    'torch\.cuda\.use_virtual\(2\) emulates two \(or start gpulab with --virtual-gpus 2\)'
  run -e 'print(pcall(torch.ones, 1, {device = "cuda"}))' -e 'torch.cuda.use_virtual(2)' \
    -e 'print(torch.cuda.device_count(), torch.ones(1, {device = "cuda:1"}).device)'
  expect_grep "use_virtual after a CUDA use that found no device still works" 0 "$OUT" '^false' $'^2\tcuda:1$'
fi

# ---- use_virtual and run_with_visible_devices ----
GPULAB_EMULATE_GPUS=1 run -e 'torch.cuda.use_virtual(3)' -e 'print(torch.cuda.device_count(), torch.cuda.is_virtual(2))'
expect "torch.cuda.use_virtual(n) before the first CUDA use" 0 $'3\ttrue'
GPULAB_EMULATE_GPUS=1 run --virtual-gpus 2 -e 'print(torch.cuda.device_count())' -e 'torch.cuda.use_virtual(4)'
expect_grep "use_virtual after the first CUDA use: a clear error" 1 "$ERR" \
  '^gpulab: RuntimeError: torch.cuda.use_virtual\(4\) must come before the first CUDA use: this session already uses 2 virtual GPUs$' \
  '^hint: start a new session with gpulab --virtual-gpus 4'
GPULAB_EMULATE_GPUS=1 run --virtual-gpus 4 -e "torch.cuda.run_with_visible_devices('2,3', 'print(torch.cuda.device_count(), torch.cuda.get_device_name(0))')"
expect "run_with_visible_devices: a second gpulab sees only the listed GPUs, renumbered" 0 \
  $'2\tgpulab virtual GPU 2 (emulated in host memory)'
GPULAB_EMULATE_GPUS=1 run --virtual-gpus 2 -e "torch.cuda.run_with_visible_devices('', 'print(torch.cuda.is_available())')"
expect "run_with_visible_devices(''): the child sees no GPU" 0 'false'
run -e "torch.cuda.run_with_visible_devices('0', 'error(\"child failed\")')"
expect_grep "run_with_visible_devices: a failing child is an error" 1 "$ERR" "CUDA_VISIBLE_DEVICES='0' failed \\(exit status 1\\)"
grep -q 'child failed' "$OUT" || fail "the failing child's message is shown"

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
expect_grep "check: no checker" 1 "$ERR" '^gpulab: no checker for orphan.lua: its first line should name its exercise'
printf -- '-- exercise: square\nfunction square(x) return x * x end\nanswer = square(7)\n' >"$WORK/attempt.lua"
run check attempt.lua
expect "check: a renamed copy finds its checker by the id inside" 0 'PASS'
printf -- '-- exercise: twice_on_gpu\nfunction twice(x) return x * 2 end\n' >"$WORK/twice.lua"
run check twice.lua
expect_grep "check: no GPU is not the learner's mistake" 1 "$OUT" \
  '^NOT CHECKED: exercise twice_on_gpu needs 1 GPU and none is visible here.*gpulab check twice.lua --virtual-gpus 2$'
run check twice.lua --virtual-gpus 1
expect "check: the same file passes on a virtual GPU" 0 'PASS'
printf -- '-- exercise: twice_on_gpu\nfunction twice(x) return (x:cpu() * 2):to(x.device) end\n' >"$WORK/twice_cpu.lua"
run check twice_cpu.lua --virtual-gpus 1
expect "check: the trace shows work done on the CPU" 1 'FAIL: the doubling ran on the CPU: double x on its device'

# ---- exercise ----
run exercise
expect_grep "exercise needs a NAME" 2 "$ERR" "'exercise' needs an exercise NAME"
run exercise nope
expect_grep "exercise: unknown name" 1 "$ERR" "^gpulab: no exercise named 'nope' \\(see 'gpulab lessons'\\)$"
run check square
expect_grep "check NAME before the copy: what to do" 1 "$ERR" \
  "^gpulab: 'square' is an exercise, not a file: first get your copy with 'gpulab exercise square'"
run exercise squ
expect "exercise: copies the starter (unique prefix) and says how to check it" 0 \
  $'Wrote square.lua: Exercise: define square(x) that returns x * x, and set `answer` to square(7).\nFill in the TODOs, then check it with: gpulab check square.lua'
if cmp -s "$WORK/square.lua" "$FIX/lessons/exercises/square.lua"; then pass "exercise: the copy is the starter"
else fail "exercise: the copy is the starter" "square.lua differs"; fi
echo '-- my work' >>"$WORK/square.lua"
run exercise square
expect_grep "exercise: never overwrites" 1 "$ERR" "^gpulab: square.lua already exists here: not overwriting it"
if tail -1 "$WORK/square.lua" | grep -q 'my work'; then pass "exercise: the learner's file is kept"
else fail "exercise: the learner's file is kept" "square.lua was overwritten"; fi
run check square
expect_grep "check NAME after the copy: check the file" 1 "$ERR" \
  "^gpulab: 'square' is an exercise, not a file: check your copy with 'gpulab check square.lua'"
run exercise twice
expect_grep "exercise: a GPU exercise says how to run it without one" 0 "$OUT" \
  '^\(no GPU here\? gpulab check twice_on_gpu.lua --virtual-gpus 2\)$'

# ---- the REPL in a terminal (tmux) ----
if ! command -v tmux >/dev/null 2>&1; then
  echo "skip terminal tests: tmux is not installed"
else
  SOCK=gpulab-cli-$$
  T="tmux -L $SOCK"
  screen() { $T capture-pane -p -t cli 2>/dev/null; }
  # wait_for PATTERN [SECONDS]: polls the screen for up to 10 s (or SECONDS).
  wait_for() {
    local i
    for i in $(seq $((${2:-10} * 10))); do
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
    if screen | grep -q '^gpulab [0-9.]* (Lua 5.4)' && screen | grep -q 'Ctrl-D to exit' &&
        screen | grep -q '^No GPU found: run with --virtual-gpus 2'; then
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
    # Completion by what objects have (tests/repl tests the logic itself).
    $T send-keys -t cli 'x = torch.ones(2, 3)' Enter
    $T send-keys -t cli 'lin = nn.Linear(2, 3)' Enter
    $T send-keys -t cli 'net = nn.Sequential(nn.Linear(4, 5))' Enter
    wait_for '^>>> net = ' && sleep 0.3
    complete_and_run() {  # complete_and_run NAME TYPED REST EXPECTED
      $T send-keys -t cli "$2"
      sleep 0.3
      $T send-keys -t cli Tab
      sleep 0.3
      $T send-keys -t cli "$3" Enter
      if wait_for "$4"; then pass "terminal: $1"; else tfail "terminal: $1" "no match for $4"; fi
    }
    complete_and_run "completes a tensor's field (x.sh -> x.shape)" 'x.sh' '' '^torch.Size\(\[2, 3\]\)$'
    complete_and_run "completes a module's method (lin:par)" '#lin:par' '()' '^2$'
    complete_and_run "completes through an index (net[0].w)" 'net[0].w' '.shape[0] * 111' '^555$'
    complete_and_run "completes an option name ({dev)" 'torch.ones(3, {dev' "'cpu'})" '^tensor\(\[1\., 1\., 1\.\]\)$'
    # Ctrl-C in a long C operation (one 6000x6000 mm: seconds even on many
    # cores): said at once, and the session survives a second one. The blank
    # lines push the last test's KeyboardInterrupt off the screen first.
    $T send-keys -t cli 'io.write(("\n"):rep(45))' Enter
    sleep 0.3
    $T send-keys -t cli 'a = torch.randn(6000, 6000); print("ready" .. "-a")' Enter
    wait_for '^ready-a$' 30
    $T send-keys -t cli 'for _ = 1, 100 do a:mm(a) end' Enter
    sleep 0.5
    $T send-keys -t cli C-c
    sleep 0.15
    $T send-keys -t cli C-c
    if wait_for '^interrupting after the current operation' && wait_for '^Still interrupting' &&
        wait_for '^KeyboardInterrupt$' 60; then
      $T send-keys -t cli '6 * 9' Enter
      if wait_for '^54$'; then pass "terminal: Ctrl-C twice during a long op: said at once, session kept"
      else tfail "terminal: Ctrl-C twice during a long op" "no prompt after it"; fi
    else
      tfail "terminal: Ctrl-C twice during a long op" "no 'interrupting after...', 'Still interrupting' or KeyboardInterrupt"
    fi
    # Ctrl-C stops a loop inside a coroutine, and the next input runs normally.
    $T send-keys -t cli 'io.write(("\n"):rep(45))' Enter
    sleep 0.3
    $T send-keys -t cli 'g = coroutine.wrap(function() while true do end end)' Enter
    $T send-keys -t cli 'g()' Enter
    sleep 0.5
    $T send-keys -t cli C-c
    sleep 0.3
    $T send-keys -t cli 'coroutine.resume(coroutine.create(function() while true do end end))' Enter
    sleep 0.5
    $T send-keys -t cli C-c
    sleep 0.3
    $T send-keys -t cli '6 * 8' Enter
    if wait_for '^48$' && [[ $(screen | grep -c '^KeyboardInterrupt$') -ge 2 ]]; then
      pass "terminal: Ctrl-C stops loops in coroutines (wrap and resume)"
    else
      tfail "terminal: Ctrl-C stops loops in coroutines (wrap and resume)"
    fi
    $T send-keys -t cli 'io.write(("\n"):rep(45))' Enter
    sleep 0.3
    $T send-keys -t cli 'for i = 1, 2 do' Enter
    $T send-keys -t cli 'print(i)' Enter
    wait_for '^\.\.\. print' && sleep 0.2
    $T send-keys -t cli C-c
    sleep 0.2
    $T send-keys -t cli '7 * 7' Enter
    if wait_for '^49$' && screen | grep -q '^KeyboardInterrupt$'; then pass "terminal: Ctrl-C at a continuation cancels the block"
    else tfail "terminal: Ctrl-C at a continuation cancels the block"; fi
    $T send-keys -t cli 'for i = 1, 3 do' Enter Enter Enter
    sleep 0.3
    $T send-keys -t cli '8 * 8' Enter
    if wait_for '^64$' && screen | grep -q "'end' expected"; then pass "terminal: two blank lines leave a continuation"
    else tfail "terminal: two blank lines leave a continuation"; fi
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
  # --step in a terminal: pauses before each next cell, naming it; q quits.
  T="tmux -L $SOCK-step"
  if $T new-session -d -s cli -x 120 -y 60 \
      "env TERM=xterm HOME=$HOME NO_COLOR=1 GPULAB_LESSONS=$FIX/lessons '$GPULAB' lesson 01_basics --step; echo EXITED=\$?; sleep 60" 2>/dev/null; then
    if wait_for '^\[Enter: cell 2/5 "Statements run; print writes", q: quit\]' && ! screen | grep -q '^gpulab$'; then
      $T send-keys -t cli Enter
      if wait_for '^gpulab$' && wait_for '^\[Enter: cell 3/5 "A trailing semicolon hides the echo", q: quit\]'; then
        $T send-keys -t cli q Enter
        if wait_for '^EXITED=0$' && ! screen | grep -q '^\[3/5\]'; then pass "terminal: lesson --step pauses per cell, q quits"
        else tfail "terminal: lesson --step pauses per cell, q quits" "q did not stop the lesson"; fi
      else
        tfail "terminal: lesson --step pauses per cell, q quits" "Enter did not run the next cell"
      fi
    else
      tfail "terminal: lesson --step pauses per cell, q quits" "no pause naming the next cell"
    fi
    $T kill-server 2>/dev/null
  else
    echo "skip terminal test of --step: tmux cannot start a second session here"
  fi
  # A third Ctrl-C within a second ends gpulab, after saying so (a server of its own).
  T="tmux -L $SOCK-b"
  if $T new-session -d -s cli -x 120 -y 40 \
      "env TERM=xterm HOME=$HOME NO_COLOR=1 '$GPULAB'; echo EXITED=\$?; sleep 60" 2>/dev/null &&
      wait_for '^>>> ?$'; then
    $T send-keys -t cli 'a = torch.randn(6000, 6000); print("ready" .. "-a")' Enter
    wait_for '^ready-a$' 30
    $T send-keys -t cli 'for _ = 1, 100 do a:mm(a) end' Enter
    sleep 0.5
    $T send-keys -t cli C-c
    sleep 0.1
    $T send-keys -t cli C-c
    sleep 0.1
    $T send-keys -t cli C-c
    if wait_for '^EXITED=130$' && screen | grep -q '^Third Ctrl-C within a second: gpulab stops now'; then
      pass "terminal: a third Ctrl-C within a second ends gpulab, saying so"
    else
      tfail "terminal: a third Ctrl-C within a second ends gpulab, saying so"
    fi
  else
    tfail "terminal: a third Ctrl-C within a second ends gpulab, saying so" "the REPL did not start"
  fi
  $T kill-server 2>/dev/null
fi

echo "$passed passed, $failed failed"
[[ $failed == 0 ]]
