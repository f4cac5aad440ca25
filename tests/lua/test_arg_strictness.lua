-- Note [Strict arguments]: every function of the surface, taken from the live
-- tables (not a hand list), refuses an extra positional argument and an unknown
-- keyword with PyTorch's TypeError, before doing anything.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')

-- Functions that take any number of positionals (PyTorch's *args): only the
-- unknown keyword is checked for them. Bound C++ functions say so in their
-- signature (`*size`); these are the Lua ones.
local VARARGS = {
  ['nn.Sequential'] = 'nn.Sequential(*modules)',
  ['torch.utils.data.TensorDataset'] = 'TensorDataset(*tensors)',
  ['torch.no_grad'] = 'no_grad(fn, *args) passes the rest to fn',
  ['torch.enable_grad'] = 'enable_grad(fn, *args) passes the rest to fn',
  ['torch.inference_mode'] = 'inference_mode(mode, fn, *args) passes the rest to fn',
  ['torch.cuda.device'] = 'device(d, fn, *args) passes the rest to fn',
}
-- Functions that take anything, as in PyTorch: not checked.
local ANYARGS = {
  ['nn.Identity'] = 'Identity(*args, **kwargs) ignores its arguments, as in PyTorch',
}

-- Not functions of the surface: internal helpers and classes used only as bases.
local function public(name) return not name:match('%._') and not name:match('^_') end

local spaces = {{'torch', torch}, {'torch.cuda', torch.cuda}, {'nn', nn}, {'nn.functional', nn.functional},
                {'nn.init', nn.init}, {'torch.optim', torch.optim}, {'torch.utils.data', torch.utils.data},
                {'torch.linalg', torch.linalg}}

local function callable(v)
  if type(v) == 'function' then return true end
  local mt = getmetatable(v)
  return type(v) == 'table' and mt ~= nil and mt.__call ~= nil
end

local entries = {}
for _, s in ipairs(spaces) do
  for k, v in pairs(s[2]) do
    local name = s[1] .. '.' .. k
    if type(k) == 'string' and public(k) and callable(v) and not ANYARGS[name] then entries[#entries + 1] = {name, v, k} end
  end
end
local x = torch.ones(2, 2)
local methods = getmetatable(x).__methods
for k, v in pairs(methods) do
  if type(k) == 'string' and public(k) and callable(v) then entries[#entries + 1] = {'Tensor.' .. k, v, k, true} end
end
table.sort(entries, function(a, b) return a[1] < b[1] end)

local function short(name) return name:match('([^.]+)$') end
local junk = {}
for i = 1, 20 do junk[i] = 'junk' end  -- more than any function takes

T.test('the surface is enumerated', function()
  T.truthy(#entries > 300, 'expected the whole surface, got ' .. #entries .. ' functions')
end)

for _, e in ipairs(entries) do
  local name, f, key, method = e[1], e[2], e[3], e[4]
  local sig = type(f) == 'function' and torch._signature(f) or nil
  local varargs = VARARGS[name] or (sig and sig:match('%*%a') ~= nil)
  -- Bound functions are checked against a signature; a missing one is a gap.
  if type(f) == 'function' and debug.getinfo(f, 'S').what == 'C' then
    T.test(name .. ' has a signature', function() T.truthy(sig, name .. ': no signature registered') end)
  end
  local function call(...)
    if method then return pcall(f, x, ...) end
    return pcall(f, ...)
  end
  -- The name in the message: the signature's, or the Lua function's; a class
  -- says Name.__init__ as Python does.
  local fname = sig and sig:match('^([%w_]+)%(') or short(name)
  local function named(err)
    local n = err:match('^TypeError: ([%w_.]+)%(%)')
    return n == fname or n == fname .. '.__init__'
  end
  if not varargs then
    T.test(name .. ' refuses an extra positional', function()
      local ok, err = call(table.unpack(junk))
      T.eq(ok, false, name .. ' accepted 20 positionals')
      err = tostring(err)
      local counts = err:match('%(%) takes %d+ positional arguments? but 2%d were given$')
        or err:match('%(%) takes from %d+ to %d+ positional arguments but 2%d were given$')
        or err:match('^TypeError: TensorBase%.[%w_]+%(%) takes no arguments %(2%d given%)$')
      T.truthy((named(err) or err:match('^TypeError: TensorBase%.' .. fname .. '%(')) and counts, name .. ': ' .. err)
    end)
  end
  -- A positional-only function (`obj, /`) takes a table as its argument: is_tensor({a = 1}).
  if not (sig and sig:match('/')) then T.test(name .. ' refuses an unknown keyword', function()
    local ok, err = call({junk_kw = 1})
    T.eq(ok, false, name .. ' accepted junk_kw')
    err = tostring(err)
    T.truthy((named(err) and err:match("%(%) got an unexpected keyword argument 'junk_kw'$"))
      or err == 'TypeError: TensorBase.' .. fname .. '() takes no keyword arguments', name .. ': ' .. err)
  end) end
end

-- The checks run before the function: nothing has happened when they raise.
T.test('an in-place op with a bad keyword leaves its tensor alone', function()
  local y = torch.zeros(3)
  local ok, err = pcall(y.add_, y, 1, {alpah = 2})
  T.eq(ok, false)
  T.eq(err, "TypeError: add_() got an unexpected keyword argument 'alpah'")
  T.eq(y:sum():item(), 0.0)
end)

T.test("PyTorch's wording", function()
  local y = torch.ones(2, 3)
  T.eq(select(2, pcall(y.transpose, y, 0, 1, 'junk')), 'TypeError: transpose() takes 2 positional arguments but 3 were given')
  T.eq(select(2, pcall(y.exp, y, {out = y})), 'TypeError: TensorBase.exp() takes no keyword arguments')
  T.eq(select(2, pcall(y.t, y, {foo = 1})), 'TypeError: TensorBase.t() takes no keyword arguments')
  T.eq(select(2, pcall(y.round, y, {decimal = 2})), "TypeError: round() got an unexpected keyword argument 'decimal'")
  T.eq(select(2, pcall(torch.exp, y, 1)), 'TypeError: exp() takes 1 positional argument but 2 were given')
  T.eq(select(2, pcall(y.exp, y, 1)), 'TypeError: TensorBase.exp() takes no arguments (1 given)')
  T.eq(select(2, pcall(y.clone, y, 1)), 'TypeError: clone() takes 0 positional arguments but 1 was given')
  -- optional positionals: "from ... to", always "arguments" (y:tril(0, 1) too, self not counted)
  T.eq(select(2, pcall(torch.tril, y, 0, 1)), 'TypeError: tril() takes from 1 to 2 positional arguments but 3 were given')
  T.eq(select(2, pcall(y.tril, y, 0, 1)), 'TypeError: tril() takes from 0 to 1 positional arguments but 2 were given')
  -- torch.linalg speaks as PyTorch's parser: linalg_ names, `input`
  T.eq(select(2, pcall(torch.linalg.vector_norm)),
       'TypeError: linalg_vector_norm() missing 1 required positional arguments: "input"')
  T.eq(select(2, pcall(torch.linalg.vector_norm, 'a')),
       "TypeError: linalg_vector_norm(): argument 'input' (position 1) must be Tensor, not str")
  T.eq(select(2, pcall(torch.linalg.vector_norm, y, 2, 0, false, 5)),
       'TypeError: linalg_vector_norm() takes from 1 to 4 positional arguments but 5 were given')
  T.eq(torch.linalg.vector_norm{x = torch.ones(4)}:item(), 2.0)  -- x=, as PyTorch's documentation names it
  T.eq(select(2, pcall(torch.linalg.norm)), 'TypeError: linalg_norm() missing 1 required positional arguments: "input"')
  T.eq(select(2, pcall(torch.linalg.inv, y, {foo = 1})), "TypeError: linalg_inv() got an unexpected keyword argument 'foo'")
  T.eq(select(2, pcall(torch.linalg.qr, y, {foo = 1})), "TypeError: linalg_qr() got an unexpected keyword argument 'foo'")
  T.eq(select(2, pcall(torch.sum, {y, dim = 0, dtpye = torch.float64})),
       "TypeError: sum() got an unexpected keyword argument 'dtpye'")
end)

-- Lua-side functions name the argument and what was expected, never a raw
-- Lua error from inside the library (the outside fuzzer's cases).
T.test('Lua-side functions check their arguments', function()
  local function err(f, ...) return select(2, pcall(f, ...)) end
  T.eq(err(nn.Flatten(), 1e9), "TypeError: Flatten.forward(): argument 'input' must be Tensor, not float")
  T.eq(err(nn.init.ones_, 1), "TypeError: ones_(): argument 'tensor' must be Tensor, not int")
  T.eq(err(nn.init.zeros_), 'TypeError: zeros_() missing 1 required positional arguments: "tensor"')
  T.eq(err(torch.randperm), 'TypeError: randperm() missing 1 required positional arguments: "n"')
  local p = {nn.Parameter(torch.ones(2))}
  T.eq(err(torch.optim.SGD, p, {lr = torch.tensor(0.1)}), "TypeError: SGD(): argument 'lr' must be float, not Tensor")
  T.eq(err(torch.optim.Adam, p, {betas = 0.9}), "TypeError: Adam(): argument 'betas' must be a pair of floats, not float")
  T.eq(err(torch.optim.SGD, {1, 2}), 'TypeError: optimizer can only optimize Tensors, but one of the params is int')
  T.eq(err(torch.utils.data.DataLoader, 5), "TypeError: DataLoader(): argument 'dataset' must be Dataset, not int")
  local ds = torch.utils.data.TensorDataset(torch.ones(4, 2))
  T.eq(err(torch.utils.data.DataLoader, ds, {batch_size = 0.5}),
       "TypeError: DataLoader(): argument 'batch_size' must be int, not float")
  T.eq(err(torch.utils.data.DataLoader, ds, {batchsize = 2}), "TypeError: DataLoader() got an unexpected keyword argument 'batchsize'")
  T.eq(err(torch.utils.data.TensorDataset, 3), "TypeError: TensorDataset(): argument 'tensors' must be Tensor, not int")
  T.eq(err(nn.Linear(2, 3), 'x'), "TypeError: Linear.forward(): argument 'input' must be Tensor, not str")
  T.eq(err(nn.MSELoss(), torch.ones(2), 3), "TypeError: MSELoss.forward(): argument 'target' must be Tensor, not int")
  T.eq(err(nn.ReLU(), torch.ones(2), torch.ones(2)), 'TypeError: ReLU.forward() takes 1 positional argument but 2 were given')
  T.eq(err(nn.Linear(2, 3).train, nn.Linear(2, 3), true, 1), 'TypeError: train() takes 1 positional argument but 2 were given')
  T.eq(err(nn.Linear(2, 3).to, nn.Linear(2, 3), {devcie = 'cpu'}), "TypeError: to() got an unexpected keyword argument 'devcie'")
  T.eq(err(torch.no_grad, 'x'), "TypeError: no_grad(): argument 'fn' must be callable, not str")
  T.eq(err(torch.save, torch.ones(1), 'x.st', 'junk'), 'TypeError: save() takes 2 positional arguments but 3 were given')
end)

T.test('type errors name the value as Python would (Note [Python type names])', function()
  local function err(f, ...) return select(2, pcall(f, ...)) end
  local x = torch.ones(2)
  T.eq(err(x.add, x, 'a'), "TypeError: add(): argument 'other' (position 1) must be Tensor, not str")
  T.eq(err(x.view, x, true), "TypeError: view(): argument 'size' (position 1) must be tuple of ints, not bool")
  T.eq(err(x.mul, x, {1}), "TypeError: mul(): argument 'other' (position 1) must be Tensor, not list")
  T.eq(err(x.mul, x, {}), "TypeError: mul(): argument 'other' (position 1) must be Tensor, not list")
  T.eq(err(torch.mul, {a = 1}, x), "TypeError: mul(): argument 'input' (position 1) must be Tensor, not dict")
  T.eq(err(x.mul, x, nn.Linear(2, 2)), "TypeError: mul(): argument 'other' (position 1) must be Tensor, not Linear")
  T.eq(err(x.transpose, x, 0.5, 1), "TypeError: transpose(): argument 'dim0' (position 1) must be int, not float")
  T.eq(err(nn.Linear(2, 3), print), "TypeError: Linear.forward(): argument 'input' must be Tensor, not function")
  T.eq(err(torch.save, {[1.5] = 1}, 'x.st'), 'TypeError: torch.save: table keys must be strings or integers, got the float key 1.5')
end)

-- Note [Operator operands]: texts of PyTorch 2.15 (x + "a" in Python: the operator, not add()).
T.test('an operator given a value it cannot take names the operator, as Python does', function()
  local function err(f) return select(2, pcall(f)) end
  local x, p = torch.ones(2), nn.Parameter(torch.ones(2))
  T.eq(err(function() return x + 'a' end), "TypeError: unsupported operand type(s) for +: 'Tensor' and 'str'")
  T.eq(err(function() return 'a' + x end), "TypeError: unsupported operand type(s) for +: 'str' and 'Tensor'")
  T.eq(err(function() return x * {} end), "TypeError: unsupported operand type(s) for *: 'Tensor' and 'list'")
  T.eq(err(function() return x / nn.Linear(2, 2) end), "TypeError: unsupported operand type(s) for /: 'Tensor' and 'Linear'")
  T.eq(err(function() return x ^ '2' end), "TypeError: unsupported operand type(s) for ** or pow(): 'Tensor' and 'str'")
  T.eq(err(function() return x // {} end), "TypeError: unsupported operand type(s) for //: 'Tensor' and 'list'")
  T.eq(err(function() return x % {a = 1} end), "TypeError: unsupported operand type(s) for %: 'Tensor' and 'dict'")
  T.eq(err(function() return x - nil end), "TypeError: unsupported operand type(s) for -: 'Tensor' and 'NoneType'")
  local b = torch.tensor({true, false})
  T.eq(err(function() return b & 'a' end), "TypeError: unsupported operand type(s) for &: 'Tensor' and 'str'")
  T.eq(err(function() return b | {} end), "TypeError: unsupported operand type(s) for |: 'Tensor' and 'list'")
  -- what the ops take still works, and their own errors stand
  T.eq(tostring(x + p), 'tensor([2., 2.], grad_fn=<AddBackward0>)')
  T.eq(tostring((2 * x + true) ^ 2 // 2 % 3), 'tensor([1., 1.])')
  T.eq(tostring(b ~ true), 'tensor([False,  True])')
  T.eq(err(function() return x - true end), 'NotImplementedError: Subtraction, the `-` operator, with a bool tensor '
       .. 'is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.')
  T.eq(err(function() return x + torch.ones(3) end),
       'RuntimeError: The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0')
  T.eq(err(function() return b - b end), 'NotImplementedError: Subtraction, the `-` operator, with two bool tensors '
       .. 'is not supported. Use the `^` or `logical_xor()` operator instead.')
end)

-- x:to()'s three forms, as PyTorch 2.15 parses them (texts from it)
T.test("to() takes PyTorch's three forms and refuses the rest with its text", function()
  local x = torch.ones(2)
  local function first(f) return (select(2, pcall(f)):match('^[^\n]*')) end
  local BAD = 'TypeError: to() received an invalid combination of arguments - got (%s), but expected one of:'
  T.eq(first(function() return x:to(torch.float64, 'cuda') end), BAD:format('torch.dtype, str'))
  T.eq(first(function() return x:to('cpu', 'cpu') end), BAD:format('str, str'))
  T.eq(first(function() return x:to(x, torch.float64) end), BAD:format('Tensor, torch.dtype'))
  T.eq(first(function() return x:to(torch.float64, true, 'x') end), BAD:format('torch.dtype, bool, str'))
  T.eq(first(function() return x:to(torch.float64, nil, true) end), BAD:format('torch.dtype, NoneType, bool'))
  T.eq(first(function() return x:to('cpu', torch.float64, true, false, 5) end),
       'TypeError: to() takes from 0 to 4 positional arguments but 5 were given')
  T.eq(select(2, pcall(x.to, x, 'cpu', 'cpu')), BAD:format('str, str') .. '\n'
       .. ' * (torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = None)\n'
       .. ' * (torch.dtype dtype, bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = None)\n'
       .. ' * (Tensor tensor, bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = None)\n')
  -- the forms themselves
  T.eq(tostring(x:to(nil)), 'tensor([1., 1.])')
  T.eq(tostring(x:to('cpu', nil)), 'tensor([1., 1.])')
  T.eq(tostring(x:to(torch.ones(1, {dtype = torch.int64}))), 'tensor([1, 1])')
  T.eq(tostring(x:to(torch.float64, false, true)), 'tensor([1., 1.], dtype=torch.float64)')
  T.eq(rawequal(x:to('cpu'), x), true)
  T.eq(rawequal(x:to('cpu', torch.float32, false, true), x), false)  -- copy=True, positional
  T.eq(tostring(x:to('cpu', {dtype = torch.int32})), 'tensor([1, 1], dtype=torch.int32)')
end)

-- Note [Argument positions]: each expected text is PyTorch 2.15's.
T.test('a wrongly typed argument given positionally is named with its position, as PyTorch names it', function()
  local function err(f, ...) return select(2, pcall(f, ...)) end
  local x = torch.ones(2)
  T.eq(err(torch.exp, 'a'), "TypeError: exp(): argument 'input' (position 1) must be Tensor, not str")
  T.eq(err(torch.sum, x, {dim = 'a'}), "TypeError: sum(): argument 'dim' must be tuple of ints, not str")
  T.eq(err(torch.add, x, {other = 'a'}), "TypeError: add(): argument 'other' must be Tensor, not str")
  T.eq(err(torch.add, x, 'x'), "TypeError: add(): argument 'other' (position 2) must be Tensor, not str")
  T.eq(err(torch.transpose, x, 'a', 1), "TypeError: transpose(): argument 'dim0' (position 2) must be int, not str")
  T.eq(err(x.transpose, x, 'a', 1), "TypeError: transpose(): argument 'dim0' (position 1) must be int, not str")
  T.eq(err(torch.zeros, 'a'), "TypeError: zeros(): argument 'size' (position 1) must be tuple of ints, not str")
  T.eq(err(torch.cat, 3), "TypeError: cat(): argument 'tensors' (position 1) must be tuple of Tensors, not int")
  T.eq(torch.ones(2):requires_grad_(nil).requires_grad, true, 'requires_grad_(nil) is the default, True')
  T.eq(err(function() return torch.ones(2):requires_grad_(3) end),
       "TypeError: requires_grad_(): argument 'requires_grad' (position 1) must be bool, not int")
  T.eq(err(torch.cat, torch.ones(2), torch.ones(2)),
       "TypeError: cat(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
  T.eq(err(torch.stack, torch.ones(2), torch.ones(2)),
       "TypeError: stack(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
  -- the operands of a binary op may be named, as in PyTorch's torch.add(x, other=y)
  T.eq(repr(torch.add(x, {other = x})), "tensor([2., 2.])")
  T.eq(repr(x:mul{other = 3}), "tensor([3., 3.])")
  T.eq(repr(torch.ones(2):sub_{other = 1}), "tensor([0., 0.])")
  -- another function's error inside this one keeps its own words
  T.eq(err(torch.mul, x, {other = 'a'}), "TypeError: mul(): argument 'other' must be Tensor, not str")
end)

T.test('a positional-only argument may be any table', function()
  T.eq(torch.is_tensor({a = 1}), false)
  T.eq(torch.is_tensor(nn.init), false)
  T.eq(select(2, pcall(torch.is_tensor, 1, 2)), 'TypeError: is_tensor() takes 1 positional argument but 2 were given')
end)

T.test('valid calls with options still work', function()
  local y = torch.ones(2, 3)
  T.eq(y:sum{dim = 0}:tolist()[1], 2.0)
  T.eq(torch.sum{y, dim = 1, keepdim = true}.shape[1], 1)
  T.eq(torch.zeros{2, 3, dtype = torch.int64}.dtype, torch.int64)
  T.eq(torch.ones(2, 3, {}):numel(), 6)
  T.eq(y:view{3, 2}.shape[0], 3)
  T.eq(y:add(y, {alpha = 2}):sum():item(), 18.0)
  T.eq(y:to{dtype = torch.float64}.dtype, torch.float64)
  T.eq(torch.cat({y, y}, {dim = 0}).shape[0], 4)
end)

-- Note [Order operators]
T.test("x > 2 says to write x:gt(2): Lua's order operators cannot give a tensor", function()
  local x = torch.arange(4)
  local want = "TypeError: Lua's <, >, <= and >= give only true or false, never a tensor: for PyTorch's x > 2 write "
    .. "x:gt(2) (and x:lt(y), x:ge(y), x:le(y), or torch.gt(x, 2)); x:eq(y) and x:ne(y) compare values, where == "
    .. 'asks whether two tensors are the same object'
  T.raises(function() return x > 2 end, want)
  T.raises(function() return 2 <= x end, want)
  T.raises(function() return x < x end, want)
  T.eq(repr(x:gt(2)), 'tensor([False, False, False,  True])')
end)

-- Note [NumPy keyword aliases]: d2l 2.3's A.sum(axis=1, keepdims=True)
T.test('axis and keepdims stand for dim and keepdim, as in PyTorch', function()
  local A = torch.arange(6.):reshape(2, 3)
  T.eq(repr(A:sum{axis = 1, keepdims = true}), 'tensor([[ 3.],\n        [12.]])')
  T.eq(repr(A:sum{axis = {0, 1}}), 'tensor(15.)')
  T.eq(repr(A:cumsum{axis = 0}), 'tensor([[0., 1., 2.],\n        [3., 5., 7.]])')
  T.eq(repr(torch.mean(A, {axis = 0})), 'tensor([1.5000, 2.5000, 3.5000])')
  T.raises(function() return A:sum{axes = 1} end, "TypeError: sum() got an unexpected keyword argument 'axes'")
end)

T.test("a class's __init__ says what is missing in CPython's words; optimizers refuse non-leaves", function()
  T.raises(function() return nn.Linear(2) end,
    "TypeError: Linear.__init__() missing 1 required positional argument: 'out_features'")
  T.raises(function() return nn.Conv2d(2) end,
    "TypeError: Conv2d.__init__() missing 2 required positional arguments: 'out_channels' and 'kernel_size'")
  T.raises(function() return nn.Conv2d() end, "TypeError: Conv2d.__init__() missing 3 required positional "
    .. "arguments: 'in_channels', 'out_channels', and 'kernel_size'")
  local w = torch.ones(2, {requires_grad = true})
  T.raises(function() return torch.optim.SGD({w * 2}, {lr = 0.1}) end, "ValueError: can't optimize a non-leaf Tensor")
end)

T.finish()
