# Part of tests/cli/run.sh (sourced, with its helpers and $WORK): version, help, options, -e, warnings, failing scripts.
# shellcheck shell=bash
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

# out= of another shape is resized, with PyTorch's deprecation warning when it had elements.
run -e 'local o = torch.empty(3); torch.add(torch.ones(2, 2), 1, {out = o}); print(o.shape)' \
    -e 'local e = torch.empty(0); torch.add(torch.ones(2), 1, {out = e}); print(e.shape)'
expect "out= resized: PyTorch's UserWarning, none for an empty out" 0 $'torch.Size([2, 2])\ntorch.Size([2])' \
  'UserWarning: An output with one or more elements was resized since it had shape [3], which does not match the required output shape [2, 2]. This behavior is deprecated, and in a future PyTorch release outputs will not be resized unless they have zero elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).'

# Ops that PyTorch warns from (Note [Warnings]): std/var with no degrees of freedom once per
# call site, scatter's deprecated reduce= once per process (PyTorch's TORCH_WARN_ONCE), F.softmax
# without dim once per call site (torch._warn from the Lua library).
cat >"$WORK/op_warnings.lua" <<'EOF'
for _ = 1, 3 do print(torch.tensor({1.}):std()) end
print(torch.ones(2, 1):var(1))
local i, s = torch.tensor({0, 1}), torch.tensor({5., 6.})
print(torch.ones(3):scatter(0, i, s, {reduce = 'add'}))
print(torch.ones(3):scatter(0, i, s, {reduce = 'multiply'}))
print(torch.ones(3):scatter(0, i, 2.0, {reduce = 'add'}))
for _ = 1, 2 do print(nn.functional.softmax(torch.tensor({0., 0.}))) end
EOF
run op_warnings.lua
expect "op warnings: std/var degrees of freedom once per site, scatter reduce= once" 0 \
  $'tensor(nan)\ntensor(nan)\ntensor(nan)\ntensor([nan, nan])\ntensor([6., 7., 1.])\ntensor([5., 6., 1.])\ntensor([3., 3., 1.])\ntensor([0.5000, 0.5000])\ntensor([0.5000, 0.5000])' \
  $'UserWarning: std(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor (input numel divided by output numel).\nUserWarning: var(): degrees of freedom is <= 0. Correction should be strictly less than the reduction factor (input numel divided by output numel).\nUserWarning: The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a future PyTorch release. Use torch.scatter_reduce instead for more reduction options.\nUserWarning: Implicit dimension choice for softmax has been deprecated. Change the call to include dim=X as an argument.'

# torch.tensor(a tensor) and x.T on other than 2 dims warn as PyTorch does, once per call site
cat >"$WORK/copy_warnings.lua" <<'EOF'
local x = torch.ones(2)
for _ = 1, 2 do print(torch.tensor(x)) end
print(x.T, torch.ones(1, 2).T.shape)
EOF
run copy_warnings.lua
expect "torch.tensor(tensor) and x.T warnings" 0 \
  $'tensor([1., 1.])\ntensor([1., 1.])\ntensor([1., 1.])\ttorch.Size([2, 1])' \
  $'UserWarning: To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).\nUserWarning: The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.'

# torch.accelerator on a machine without a GPU answers as PyTorch's there
# (tests/pytorch/gen_accelerator.py wrote the expected lines).
# A build without CUDA (the sanitizer build) answers current_device_index as
# PyTorch's CPU-only build does.
want=$(cat "$FIX/accelerator/no_gpu.txt")
if [[ $("$GPULAB" -e 'io.write(tostring(torch.version.cuda))') == nil ]]; then
  want=$(sed 's/^RuntimeError: Found no NVIDIA driver.*/RuntimeError: Torch not compiled with CUDA enabled/' <<<"$want")
fi
if [ "$REAL_GPU" = 1 ]; then
  echo "skip torch.accelerator without a GPU: a GPU is here"
else
  run "$FIX/accelerator/no_gpu.lua"
  expect "torch.accelerator without a GPU, as PyTorch's" 0 "$want"
fi

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
# A Python habit in a script gets the REPL's hint under the message, lua.c's traceback kept.
cat >"$WORK/habit.lua" <<'EOF'
local function accuracy(pred, y)
  return (pred:argmax(1) == y):float():mean()
end
print(accuracy(torch.ones(4, 3), torch.zeros(4)))
EOF
run habit.lua
expect_grep "a script's Python habit gets its hint" 1 "$ERR" '^gpulab: habit.lua:2: attempt to index a boolean value$' \
  "^hint: Lua's == gives true or false \(whether both sides are the same object\), never a tensor: PyTorch's pred:argmax\(1\) == y is pred:argmax\(1\):eq\(y\) here$" \
  '^stack traceback:' 'habit.lua:4: in main chunk'
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

