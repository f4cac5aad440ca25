# Part of tests/cli/run.sh (sourced, with its helpers and $WORK): no GPU, virtual devices, check and exercise.
# shellcheck shell=bash
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
  expect "lesson needing 2 GPUs without a GPU: two virtual ones, said once (on stderr under --quiet)" 0 "2" \
"Note: this machine has no GPU, so this lesson runs on 2 virtual GPUs
      emulated in host memory (as \`gpulab --virtual-gpus 2\` gives).
      They print what GPUs print (random numbers as the CPU draws them);
      their timings are CPU timings.
      In the REPL: torch.cuda.use_virtual(2) before the first CUDA use."
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
if [ "$REAL_GPU" = 1 ]; then
  echo "skip check: no GPU is not the learner's mistake (a GPU is here)"
else
  run check twice.lua
  expect_grep "check: no GPU is not the learner's mistake" 1 "$OUT" \
    '^NOT CHECKED: exercise twice_on_gpu needs 1 GPU and none is visible here.*gpulab check twice.lua --virtual-gpus 2$'
fi
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

