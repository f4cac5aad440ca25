# Part of tests/cli/run.sh (sourced, with its helpers and $WORK): lessons, GPULAB_DATA and doctor.
# shellcheck shell=bash
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
expect_grep "fewer devices than declared: said up front (on stderr under --quiet)" 0 "$ERR" \
  '^Note: this lesson is written for 2 GPUs and runs here with 1 virtual GPU:$' \
  'the cells that need more say what 2 would show\. To see it all:$' '^      gpulab lesson 04_devices --virtual-gpus 2$'
[[ $(cat "$OUT") == 1 ]] || fail "--quiet: stdout holds the code's output alone" "$(cat "$OUT")"
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

