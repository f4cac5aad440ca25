-- Golden table: Python habits typed at the REPL, and the hint each gets
-- (the last line gpulab prints for the input). Runs a real REPL on piped stdin.
local dir = arg[0]:match('^(.*)[/\\]') or '.'
local T = dofile(dir .. '/testlib.lua')
local run = dofile(dir .. '/repl_driver.lua')

local dot = "hint: call methods with ':' in Lua: "
local colon = 'hint: Lua blocks are `if c then ... end`, `while c do ... end`, `for ... do ... end`: no colon, no indentation'
local tfn = 'hint: Lua writes true, false and nil'
local habits = {
  {'x.sum()', dot .. 'x:sum(...)'},
  {'x.to("cpu")', dot .. 'x:to(...)'},
  {'net.parameters()', dot .. 'net:parameters(...)'},
  -- a library function called without its tensor: the error alone, no ':' hint
  {'torch.linalg.vector_norm()', 'TypeError: linalg_vector_norm() missing 1 required positional arguments: "input"'},
  {'y = x.float()', dot .. 'x:float(...)'},
  {'def f(x): return x', 'hint: Lua defines functions as `function f(x) ... end` (or local f = function(x) ... end)'},
  {'f = lambda x: x * 2', 'hint: Lua writes an anonymous function as function(x) return x * 2 end'},
  {'y = x @ x', 'hint: Lua has no @ operator: use torch.matmul(a, b) or a:matmul(b)'},
  {'print(f"x = {x}")', "hint: Lua has no f-strings: use string.format('x = %s', x) or ('x = %s'):format(x)"},
  {'len(x)', "hint: Lua writes #t for a table's length; for a tensor x:size(0), x.shape[0] or x:numel()"},
  {'exit()', 'hint: leave with Ctrl-D (or os.exit())'},
  {'quit()', 'hint: leave with Ctrl-D (or os.exit())'},
  {'M = {}\nfunction M.f(n) return self.n end\nM.f(1)',
   "hint: a function defined with '.' has no self: define it as function T:f(...) and call it as obj:f(...)"},
  {'x[3]', 'hint: indices count from 0, as in PyTorch: the last of n is n - 1 (or -1); Lua tables count from 1'},
  {'local q = 5', ''},
  {'q', 'hint: `local q` in In[N] ended with that input: at the prompt, write q = ... without local'},
  {'print x', 'hint: print is a function in Lua: print(x)'},
  {'True', tfn},
  {'x:shape', 'hint: x:shape calls a method; read a field with a dot: x.shape'},
  {'y = x:requires_grad_(True)', tfn},
  {'l = {1}\nl[0].lr', 'hint: Lua tables count from 1: t[1] is Python\'s t[0] (tensors, dims and nn.Sequential count from 0)'},
  {'None', tfn},
  {'if x == nil: print(1)', colon},
  {'if a then print(1) elif b then print(2) end', 'hint: Lua writes elseif'},
  {'ok = 1 != 2', "hint: Lua writes 'not equal' as ~="},
  {'n = 1\nn += 1', 'hint: Lua has no +=: write x = x + 1 (a tensor in place: x:add_(1))'},
  {'ok = true && false', 'hint: Lua writes and, or, not'},
  {'import torch', 'hint: torch, nn, F (nn.functional) and optim are already loaded: no import needed (require loads Lua modules)'},
  {'from torch import nn', 'hint: torch, nn, F (nn.functional) and optim are already loaded: no import needed (require loads Lua modules)'},
  {'sq = [i * i for i in range(3)]',
   'hint: Lua has no comprehensions: local out = {} for i, v in ipairs(t) do out[#out + 1] = v * 2 end'},
  {'for i in range(3) do print(i) end', 'hint: Lua counts with `for i = 0, n - 1 do ... end` (both ends included)'},
  {'for i in range(3): print(i) end', 'hint: Lua counts with `for i = 0, n - 1 do ... end` (both ends included)'},
  {'while true: break', colon},
  {'y = 1  # one', 'hint: Lua comments start with --'},
  {'y = 2 ** 3', 'hint: Lua writes powers as x ^ 2 (tensors: x:pow(2) or x ^ 2)'},
  {'s = "%d items" % 3', "hint: Lua formats with string.format('%d', n) or ('%d'):format(n)"},
  {'s = "a" + "b"', 'hint: Lua joins strings with ..: "a" .. "b"'},
  {'v = x.item + 1', 'hint: x.item is the method itself: call it, x:item()'},
  {'torch.zeroes(3)', "AttributeError: module 'torch' has no attribute 'zeroes'. Did you mean: 'zeros'?"},
  {'t = [1, 2, 3]', 'hint: Lua tables use braces: {1, 2, 3}'},
  {"d = {'a': 1}", "hint: Lua tables use {a = 1} or {['a b'] = 1}"},
  {'y = x[:, 0]', "hint: slices are strings in Python's syntax: x[':, 1'], x['1:3']"},
  {'y = x:sum(dim=0)', 'hint: Lua has no keyword arguments: options go in a trailing table: y = x:sum({dim=0})'},
  {'y = x.sum(dim=0, keepdim=True)',
   'hint: Lua has no keyword arguments: options go in a trailing table: y = x:sum({dim=0, keepdim=true})'},
  {'l = nn.Linear(3, 4, bias=False)', 'hint: Lua has no keyword arguments: options go in a trailing table: l = nn.Linear(3, 4, {bias=false})'},
  {'z = torch.randn(2, device="cuda", name="a=b)")',
   'hint: Lua has no keyword arguments: options go in a trailing table: z = torch.randn(2, {device="cuda", name="a=b)"})'},
  {'net.to(device="cpu", dtype=torch.float64)',
   'hint: Lua has no keyword arguments: options go in a trailing table: net:to({device="cpu", dtype=torch.float64})'},
  {'print(f(1, g(2, c=None)), 3)', 'hint: Lua has no keyword arguments: options go in a trailing table: print(f(1, g(2, {c=nil})), 3)'},
  {'class Net(nn.Module):', "hint: subclass with local Net = nn.Module:extend('Net') and define function Net:forward(x) ... end"},
  {'with torch.no_grad():',
   'hint: use torch.no_grad(function() ... end), or `local _ <close> = torch.no_grad()` inside a do ... end block'},
  {"with torch.autocast(device_type='cuda', dtype=torch.float16):",
   "hint: use torch.autocast('cuda', {dtype=torch.float16}, function() ... end), or `local _ <close> = "
     .. "torch.autocast('cuda', {dtype=torch.float16})` inside a do ... end block"},
  {'with torch.autocast("cpu", enabled=False):',
   'hint: use torch.autocast("cpu", {enabled=false}, function() ... end), or `local _ <close> = '
     .. 'torch.autocast("cpu", {enabled=false})` inside a do ... end block'},
  {'try:\n  y = 1', 'hint: Lua catches errors with pcall: local ok, err = pcall(f, ...)'},
  {'raise ValueError("bad")', "hint: Lua raises errors with error('message')"},
  {'del x2', 'hint: Lua deletes a variable by setting it to nil: x = nil'},
  {'ok = x is None', 'hint: Lua compares with == nil and ~= nil'},
  {'y = 1 if ok else 2', 'hint: Lua writes `a if c else b` as c and a or b'},
  {'t2 = {}\nt2.append(1)', 'hint: Lua appends with table.insert(t, v) or t[#t + 1] = v'},
  {'s = str(1)', 'hint: Lua writes tostring(x)'},
  {'assert x, "msg"', "hint: Lua writes assert(cond, 'message')"},
  {'s = x.shape()', 'hint: x.shape is a field, not a method: x.shape (or x:size())'},
  {'c = x:is_cuda()', 'hint: x.is_cuda is a field (a property in PyTorch), not a method: write x.is_cuda'},
  {'before = id(x)', "hint: Lua has no id(): rawequal(a, b) tells whether a and b are one object; for tensors, x:data_ptr() is where its memory starts"},
  {'pred = torch.ones(3, 2)\nlab = torch.zeros(3)\nacc = (pred:argmax(1) == lab):float():mean()',
   "hint: Lua's == gives true or false (whether both sides are the same object), never a tensor: PyTorch's pred:argmax(1) == lab is pred:argmax(1):eq(lab) here"},
  {'lab = torch.zeros(3)\nn = torch.sum(lab ~= 0)',
   "hint: Lua's ~= gives true or false (whether the two sides are different objects), never a tensor: PyTorch's lab != 0 is lab:ne(0) here"},
  {'lab = torch.zeros(3)\nn = 1 + (lab + 1 == 1)',
   "hint: Lua's == gives true or false (whether both sides are the same object), never a tensor: PyTorch's lab + 1 == 1 is (lab + 1):eq(1) here"},
  {'y = nn.Linear(2, 1)({1, 2})',
   'hint: a Lua table is not a tensor: torch.tensor({...}) makes one (and a batch {X, y} is read as batch[1], batch[2])'},
  {'y = x + {1, 2, 3}',
   'hint: a Lua table is not a tensor: torch.tensor({...}) makes one (and a batch {X, y} is read as batch[1], batch[2])'},
  {'w = torch.ones(2, {requires_grad=true}); x = torch.ones(2); y = (w * x):sum(); x:add_(1); y:backward()',
   'hint: the backward reads a value its forward saved, and an in-place op (x:add_(), x[i] = v, an optimizer step) '
     .. 'has changed it since: change a copy (x = x + 1), or call backward first'},
  {'out = torch.ones(2, 3)\npred = out:max(1)[1]', "hint: PyTorch's [0] and [1] are .values and .indices here: pred = out:max(1).indices"},
  {'out = torch.ones(2, 3)\nv = torch.sort(out, 1)[0]', "hint: PyTorch's [0] and [1] are .values and .indices here: v = torch.sort(out, 1).values"},
  {'s = torch.ones(2, 3).shape\nn = s.numel()', "hint: call methods with ':' in Lua: s:numel(...)"},
  {'a = x:numpy()', 'hint: there is no NumPy here: x:tolist() gives Lua tables, x:tobytes() the raw bytes (torch.frombuffer reads them back)'},
  {'n = range(3)', 'hint: Lua counts with `for i = 0, n - 1 do ... end`; torch.arange(n) makes a tensor'},
  {'import numpy as np', 'hint: torch, nn, F (nn.functional) and optim are already loaded: no import needed (require loads Lua modules)'},
}

local inputs = {}
for i, h in ipairs(habits) do inputs[i] = h[1] end
local out = run(inputs, {'x = torch.ones(3)', 'net = nn.Linear(2, 2)', 'a, b = true, false'})

T.test('50 Python habits and their hints', function()
  T.eq(#habits >= 50, true, 'at least 50 habits')
  local bad = {}
  for i, h in ipairs(habits) do
    local last = out[i]:match('([^\n]*)$'):gsub('In%[%d+%]', 'In[N]')
    if last ~= h[2] then
      bad[#bad + 1] = ('%d %q\n    want %q\n    got  %q'):format(i, h[1], h[2], out[i])
    end
  end
  T.eq(table.concat(bad, '\n'), '', 'habits whose hint differs')
end)

-- Note [Tensor ==]: a cell that is one == or ~= on a tensor gets a line under its echo.
T.test('X == Y on tensors is explained under its echo', function()
  local R = torch._util.repl
  X, Y, n = torch.arange(3), torch.arange(3), 3
  T.eq(R.echo_note('X == Y'), "hint: == on tensors asks whether both sides are the same object (Python's `is`); "
    .. "PyTorch's X == Y compares values, which is X:eq(Y) here")
  T.eq(R.echo_note('X ~= 2;'), "hint: ~= on tensors asks whether the two sides are different objects (Python's "
    .. "`is not`); PyTorch's X != 2 compares values, which is X:ne(2) here")
  T.eq(R.echo_note('n == Y'), "hint: == on tensors asks whether both sides are the same object (Python's `is`); "
    .. "PyTorch's Y == n compares values, which is Y:eq(n) here")
  for _, quiet in ipairs({'n == 3', 'X == nil', 'X', 'X:eq(Y)', 'X == Y and n == 3', 'missing == X', 'X == f(Y)'}) do
    T.eq(R.echo_note(quiet), nil, quiet)
  end
  X, Y, n = nil, nil, nil
end)

T.test('dir(x) lists what an object answers to, sorted, as Python\'s dir()', function()
  local function has(list, name)
    for _, v in ipairs(list) do if v == name then return true end end
    return false
  end
  local function sorted(list)
    for i = 2, #list do if list[i - 1] >= list[i] then return false end end
    return true
  end
  local dir = _G.dir  -- this file's `dir` is its folder
  local d = dir(torch.ones(2))
  T.check(sorted(d), 'dir(x) is sorted, without repeats')
  for _, n in ipairs({'T', 'shape', 'grad', 'abs', 'abs_', 'matmul', 'data_ptr'}) do T.check(has(d, n), n) end
  T.check(not has(d, '__index'), 'no metamethods')
  local net = dir(nn.Linear(2, 3))
  for _, n in ipairs({'weight', 'bias', 'forward', 'parameters', 'in_features'}) do T.check(has(net, n), n) end
  T.check(has(dir(nn.init), 'zeros_'), 'a namespace')
  T.check(has(dir(), 'torch'), 'dir() lists the globals')
  T.check(has(dir('abc'), 'upper'), "a string's methods")
end)

T.finish()
