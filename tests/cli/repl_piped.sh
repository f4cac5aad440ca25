# Part of tests/cli/run.sh (sourced, with its helpers and $WORK): the REPL on piped input and its magics.
# shellcheck shell=bash
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
torch.ones(1).grad
nil, 1
z = 2; z
!echo from the shell
error('boom')
print('not reached')
EOF
STDIN=$WORK/repl_in run
expect "REPL piped: echo, ';', multi-line, None (silent alone), the last statement, !cmd, no prompts; stops at the first error" 1 \
"3
10
'abc'
loop	0
loop	1
3
1
(4, 5)
(None, 1)
2
from the shell"
expect_grep "REPL piped: the error that stopped it" 1 "$ERR" 'boom'

# Note [Guards left on the prompt]: a guard typed as a line's value is closed at once, with a hint,
# so the mode is as before (in PyTorch the object alone does nothing); a <close> local keeps it.
cat >"$WORK/repl_in" <<'EOF'
torch.no_grad()
torch.is_grad_enabled()
torch.autocast('cpu')
torch.is_autocast_enabled('cpu')
do local _ <close> = torch.autocast('cpu'); print(torch.is_autocast_enabled('cpu'), torch.mm(torch.ones(1, 1), torch.ones(1, 1)).dtype) end
torch.is_autocast_enabled('cpu')
EOF
STDIN=$WORK/repl_in run
hint_ng="hint: torch.no_grad(...) left as a line's value is closed at once: the object alone does nothing in PyTorch (only \`with\` enters it). For a block: torch.no_grad(..., function() ... end), or \`local _ <close> = torch.no_grad(...)\` inside a do ... end block"
hint_ac=${hint_ng//torch.no_grad/torch.autocast}
sed -E 's/0x[0-9a-f]+/0xADDR/' "$OUT" >"$OUT.masked" && mv "$OUT.masked" "$OUT"
expect "REPL piped: a guard left as a line's value is closed at once, with a hint" 0 \
"<torch.autograd.grad_mode.no_grad at 0xADDR>
True
<torch.amp.autocast_mode.autocast at 0xADDR>
False
true	torch.bfloat16
False" "$hint_ng
$hint_ac"

# d2l's loop as a learner types it at the prompt (Note [for X, y in loader]).
cat >"$WORK/repl_in" <<'EOF'
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.ones(5, 2), torch.arange(5)), {batch_size = 2})
for X, y in loader do
  print(X.shape, y)
end
for i, batch in loader:enumerate() do print(i, #batch) end
X, y = next(iter(loader))
y
next(iter(loader))
EOF
STDIN=$WORK/repl_in run
expect "REPL piped: for X, y in loader and X, y = next(iter(loader)) unpack each batch, one name keeps it whole" 0 \
"torch.Size([2, 2])	tensor([0, 1])
torch.Size([2, 2])	tensor([2, 3])
torch.Size([1, 2])	tensor([4])
0	2
1	2
2	2
tensor([0, 1])
[tensor([[1., 1.],
         [1., 1.]]),
 tensor([0, 1])]"
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
# Note [Tensor ==]: d2l's X == Y echoes one boolean here; the line under it says why.
printf 'X = torch.arange(3)\nY = torch.arange(3)\nX == Y\nX:eq(Y)\n' >"$WORK/repl_eq"
STDIN=$WORK/repl_eq run
expect "REPL piped: X == Y on tensors, then the method that compares values" 0 \
"False
hint: == on tensors asks whether both sides are the same object (Python's \`is\`); PyTorch's X == Y compares values, which is X:eq(Y) here
tensor([True, True, True])"
# `!nvidia-smi` with no nvidia-smi on PATH shows gpulab's table; a real one runs.
mkdir -p "$WORK/nosmi" "$WORK/fakesmi"
printf '!nvidia-smi\n' >"$WORK/repl_smi"
STDIN=$WORK/repl_smi PATH=$WORK/nosmi GPULAB_EMULATE_GPUS=1 run --virtual-gpus 1
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
  "^Wall time: $NUM (ns|µs|ms|s) \\(monotonic clock(, 1 CUDA device synchronized)?\\)\$" '^42$' \
  "^$NUM (ns|µs|ms) ± $NUM (ns|µs|ms) per loop \\(mean ± std\\. dev\\. of 7 runs, [0-9,]+ loops each\\)\$" \
  '^Timing of every command is on' '^2$' '^4$'
[[ $(grep -c '^Wall time' "$OUT") == 3 ]] || fail "%timing on times exactly the commands while on"
# (on a loaded machine %timeit may first warn, as IPython does, that its slowest run took N times longer)
[[ $(sed -n 4p "$OUT") == CPU* && $(sed -n 5p "$OUT") == Wall* &&
   ($(sed -n 6p "$OUT") == *'per loop'* || ($(sed -n 6p "$OUT") == 'The slowest run took'* &&
                                            $(sed -n 7p "$OUT") == *'per loop'*)) ]] || fail "%time STMT; echoes nothing"
loops=$(grep -o '[0-9,]* loops each' "$OUT" | tr -d ,)
[[ ${loops%% *} -ge 1000 ]] || fail "%timeit of a fast statement runs many loops (got $loops)"
printf '%%time 1\n' >"$WORK/repl_time_gpu"
STDIN=$WORK/repl_time_gpu run --virtual-gpus 2
expect_grep "%time says that it synchronised the devices" 0 "$OUT" \
  '^Wall time: .* \(monotonic clock, 2 CUDA devices synchronized\)$'
printf '%%timeit error("in timeit")\nprint("not reached")\n' >"$WORK/repl_time_err"
STDIN=$WORK/repl_time_err run
expect_grep "%timeit of a failing statement is an error" 1 "$ERR" 'in timeit'
printf 'n_calls = 0\n%%timeit -n 3 -r 2 n_calls = n_calls + 1\nn_calls\n' >"$WORK/repl_timeit_n"
STDIN=$WORK/repl_timeit_n run
expect_grep "%timeit -n 3 -r 2: 3 loops in each of 2 runs" 0 "$OUT" \
  '^.* per loop \(mean ± std\. dev\. of 2 runs, 3 loops each\)$' '^6$'
printf '%%timeit\n' >"$WORK/repl_timeit_empty"
STDIN=$WORK/repl_timeit_empty run
expect_grep "%timeit without a statement" 1 "$ERR" '^UsageError: %timeit needs a statement'
printf '%%bogus 1\n' >"$WORK/repl_magic_err"
STDIN=$WORK/repl_magic_err run
expect_grep "unknown magic: IPython's text" 1 "$ERR" "^UsageError: Line magic function \`%bogus\` not found.$"

# %who and %whos as IPython 9 prints them: the learner's names only (not torch, nn, arg, Out, _N)
cat >"$WORK/repl_who" <<'EOF'
%who
x = torch.ones(3)
n = 5
s = 'hello'
net = nn.Linear(2, 3)
lst = {1, 2}
b = true
x
%who
%who Tensor int
%who str2
%whos
EOF
STDIN=$WORK/repl_who run
expect "%who and %whos" 0 "Interactive namespace is empty.
tensor([1., 1., 1.])
b	 lst	 n	 net	 s	 x	 
n	 x	 
No variables match your requested type.
Variable   Type      Data/Info
------------------------------
b          bool      True
lst        list      n=2
n          int       5
net        Linear    Linear(in_features=2, out_features=3, bias=True)
s          str       hello
x          Tensor    tensor([1., 1., 1.])"


# Python shows a warning once per line that caused it: two lines, two warnings (the library's
# tail calls must not hide the site), whether or not a GPU is there for the CUDA ones.
cat >"$WORK/warn_sites.lua" <<'EOF'
torch.cpu.amp.autocast(function() end)
torch.cpu.amp.autocast(function() end)
torch.autocast('cpu', {dtype=torch.float64}, function() end)
torch.autocast('cpu', {dtype=torch.float64}, function() end)
EOF
run "$WORK/warn_sites.lua"
if [[ $RC == 0 && $(grep -c "FutureWarning: \`torch.cpu.amp.autocast" "$ERR") == 2 &&
      $(grep -c "In CPU autocast, but the target dtype is not supported" "$ERR") == 2 ]]; then
  pass "warnings: one per line that caused it, through the amp library's calls"
else
  fail "warnings: one per line that caused it, through the amp library's calls" "stderr: $(cat "$ERR")"
fi
