-- Helpers shared by the Lua half of the library (nn, optim, data): grad-mode
-- scopes, PyTorch-style argument parsing, a small class system, an ordered
-- dictionary (state_dict) and Python-style printing of plain values.
-- Everything lives in torch._util so the later chunks can share it.
local U = {}
torch._util = U

-- Note [Empty string.rep]: Lua's own string.rep('', n) copies nothing n times,
-- in C, where no hook runs: ('').rep('', math.maxinteger) hung the fuzzer's
-- Lua state, and a REPL could not stop it with Ctrl-C. The result is '' at
-- once; errors (a count with no integer value) stay Lua's.
do
  local rep = string.rep
  string.rep = function(s, n, sep)  -- luacheck: ignore (a standard library fix)
    if s == '' and (sep == nil or sep == '') and math.tointeger(n) then return rep('', 1) end
    return rep(s, n, sep)
  end
end

-- ---- grad mode -------------------------------------------------------------
-- Runs fn(...) with grad mode set to `mode`, restoring the previous mode even
-- when fn raises (the error is re-raised unchanged). Both are C functions
-- (bindings/grad_scope.cpp): no Lua instruction, so no interrupt, falls
-- between switching the mode and the protected call or its restore.
local with_grad_mode = torch._with_grad_mode
U.with_grad_mode = with_grad_mode

-- torch.no_grad(fn, ...) runs fn without recording autograd graphs.
-- torch.no_grad() with no function returns a to-be-closed guard:
--   do local _ <close> = torch.no_grad(); ... end
local function grad_scope(mode)
  local fname = mode and 'enable_grad' or 'no_grad'
  return function(fn, ...)
    U.check_callable(fname, fn)
    if fn ~= nil then return with_grad_mode(mode, fn, ...) end
    return torch._grad_guard(mode, fname)
  end
end
if torch.no_grad == nil then torch.no_grad = grad_scope(false) end
if torch.enable_grad == nil then torch.enable_grad = grad_scope(true) end

-- torch.as_tensor(data, {dtype=, device=}): a tensor as it is when it already
-- has that dtype and device (no copy, as PyTorch's), else converted; other
-- data through torch.tensor.
if torch.as_tensor == nil then
  function torch.as_tensor(...)
    local a = U.parse('as_tensor', {'data!', 'dtype', 'device'}, nil, ...)
    if not U.is_tensor(a.data) then return torch.tensor(a.data, {dtype = a.dtype, device = a.device}) end
    local x = a.data
    if a.device ~= nil then x = x:to(torch.device(a.device)) end
    if a.dtype ~= nil then x = x:to(a.dtype) end
    return x
  end
end

-- ---- value kinds -----------------------------------------------------------
-- The C++ userdata metatables carry __name ('torch.Tensor', 'torch.device', ...).
function U.kind(v)
  local t = type(v)
  if t == 'userdata' then
    local mt = getmetatable(v)
    return mt and mt.__name or 'userdata'
  end
  return t
end
function U.is_tensor(v) return U.kind(v) == 'torch.Tensor' end
function U.is_plain_table(v) return type(v) == 'table' and getmetatable(v) == nil end

-- ---- argument parsing ------------------------------------------------------

-- The name the C++ bindings give a value's type in their errors (Note [Python
-- type names] in luaT.h): Python's names, so the text is PyTorch's.
local PY_NAMES = {string = 'str', boolean = 'bool', ['nil'] = 'NoneType', integer = 'int', float = 'float'}
function U.type_name(v)
  local k = U.kind(v)
  if k == 'torch.Tensor' then return 'Tensor' end
  if k == 'table' then
    local mt = getmetatable(v)
    local name = type(mt) == 'table' and rawget(mt, '__name')
    if name then return type(name) == 'string' and name or 'object' end
    return (rawlen(v) > 0 or next(v) == nil) and 'list' or 'dict'
  end
  return PY_NAMES[math.type(v) or k] or k
end
torch._type_name = U.type_name  -- for the interpreter's own Lua (progress)

-- The TypeErrors of the C++ bindings (Note [Strict arguments]), same wording.
U.too_many = torch._too_many  -- bindings/args_lua.cpp: the C++ bindings' wording
function U.type_error(fname, arg, expected, v)
  error(("TypeError: %s(): argument '%s' must be %s, not %s"):format(fname, arg, expected, U.type_name(v)), 0)
end

-- Type checks for U.parse names 'name:Type' and U.check: a nil value passes
-- (absent arguments are the caller's defaults or its own error).
local checks = {
  Tensor = U.is_tensor,
  int = function(v) return math.type(v) == 'integer' end,
  float = function(v) return type(v) == 'number' end,
  bool = function(v) return type(v) == 'boolean' end,
  str = function(v) return type(v) == 'string' end,
  Module = function(v) return type(v) == 'table' and type(v.forward) == 'function' end,
}
function U.check(fname, arg, expected, v)
  if v ~= nil and not checks[expected](v) then U.type_error(fname, arg, expected, v) end
  return v
end
-- f(fn, ...): fn must be callable; a keywords table in its place is refused as one.
function U.check_callable(fname, fn, arg)
  if fn == nil or type(fn) == 'function' or (getmetatable(fn) or {}).__call then return end
  if U.is_plain_table(fn) then
    for k in pairs(fn) do
      if type(k) == 'string' then error(("TypeError: %s() got an unexpected keyword argument '%s'"):format(fname, k), 0) end
    end
  end
  U.type_error(fname, arg or 'fn', 'callable', fn)
end
function U.required(fname, arg, v)
  if v == nil then error(('TypeError: %s() missing 1 required positional arguments: "%s"'):format(fname, arg), 0) end
  return v
end

-- U.parse(fname, names, defaults, ...) reads calls the way the C++ bindings
-- do and returns {name = value}: a trailing plain table with only string keys
-- (or an empty one) holds keywords, f(a, b, {k=v}); a lone table mixing array
-- items and string keys is the one-table form, f{a, b, k=v}; any other table
-- is a positional value (so f({x, y}) passes a list). Unknown keywords and too
-- many positionals raise PyTorch's TypeError, as the C++ trampoline does. A
-- name may carry a type, 'tensor:Tensor' (see `checks`); a '!' after it makes
-- the argument required: 'tensor:Tensor!'. Names after '*' are keyword-only.
local parse_args = torch._parse_args
function U.parse(fname, names, defaults, ...)
  -- The shape of the call first (as PyTorch's parser): counts and keywords in
  -- C++ (bindings/args_lua.cpp, the bindings' own Args), then required and types.
  local r = parse_args(fname, names, defaults, ...)
  for _, spec in ipairs(names) do
    if spec ~= '*' then
      local name, ty, req = spec:match('^([^:!]+):?([^!]*)(!?)$')
      local v = r[name]
      if req == '!' then U.required(fname, name, v) end
      if ty ~= '' then U.check(fname, name, ty, v) end
    end
  end
  return r
end

-- ---- classes ---------------------------------------------------------------
-- U.class(name, parent, make_meta): a class table. Instances share cls.__meta,
-- built by make_meta(cls) (inherited from the parent when nil), so each family
-- (modules, datasets, optimizers) decides its metamethods once. Calling the
-- class makes an instance through cls:new(...). Subclass with Base:extend(name).
function U.class(name, parent, make_meta)
  local cls = {__name = name, super = parent}
  setmetatable(cls, {
    __index = parent,
    __call = function(c, ...) return c:new(...) end,
    __tostring = function(c) return "<class '" .. c.__name .. "'>" end,
  })
  make_meta = make_meta or parent.__make_meta
  cls.__make_meta = make_meta
  cls.__meta = make_meta(cls)
  cls.__meta.__class = cls
  if parent == nil then
    cls.extend = function(base, sub)
      assert(type(sub) == 'string', 'extend(name): the class needs a name')
      return U.class(sub, base)
    end
  end
  return cls
end

-- help(cls) and help(instance) print this text (00_help reads __doc).
function U.doc(cls, text)
  getmetatable(cls).__doc = text
  cls.__meta.__doc = text
end

function U.class_of(obj)
  local mt = getmetatable(obj)
  return type(mt) == 'table' and mt.__class or nil
end

-- ---- Python-style text -----------------------------------------------------
-- Python's repr of a float (shortest round-trip digits, '1.0', 1e-05, 1e+16):
-- the one implementation, in C++ (bindings/repr.cpp), shared with the echo.
U.pyfloat = torch._pyfloat

-- Python's repr of a plain value: strings quoted, booleans True/False, nil None,
-- arrays as lists, objects through tostring.
function U.repr(v)
  local t = type(v)
  if t == 'string' then return repr(v)
  elseif t == 'number' then return U.pyfloat(v)
  elseif t == 'boolean' then return v and 'True' or 'False'
  elseif v == nil then return 'None'
  elseif U.is_plain_table(v) then
    local parts = {}
    for i = 1, #v do parts[i] = U.repr(v[i]) end
    return '[' .. table.concat(parts, ', ') .. ']'
  end
  return tostring(v)
end

function U.split_lines(s)
  local out = {}
  for line in (s .. '\n'):gmatch('(.-)\n') do out[#out + 1] = line end
  return out
end

-- ---- lists that also iterate -----------------------------------------------
-- module:parameters() returns an array (ipairs, #, optimizers) that is also a
-- generic-for iterator: `for p in model:parameters() do`. Named variants hold
-- {name, value} pairs and iterate as `for name, p in model:named_parameters()`.
local cursor = setmetatable({}, {__mode = 'k'})
local function list_tostring(self)
  local parts = {}
  for i, e in ipairs(self) do
    parts[i] = getmetatable(self).__pairs_list and ('(' .. U.repr(e[1]) .. ', ' .. U.repr(e[2]) .. ')') or U.repr(e)
  end
  return '[' .. table.concat(parts, ', ') .. ']'
end
-- These lists are Lua arrays, counted from 1; a Python habit of [0] gets an
-- error that says so instead of a silent nil.
local function list_index(self, k)
  if k == 0 then
    error('IndexError: index 0 of a Lua list: lists such as net:parameters() count from 1, so the\n'
      .. 'first entry is [1] (Python\'s [0]). Tensors, dims, devices and nn.Sequential count from 0.\n'
      .. 'hint: net:parameters()[1], or loop: for p in net:parameters() do ... end', 2)
  end
end
local ItemList = {
  __index = list_index,
  __call = function(self, _, ctrl)
    local i = ctrl == nil and 1 or cursor[self] + 1
    cursor[self] = i
    return self[i]
  end,
  __tostring = list_tostring,
}
local PairList = {
  __pairs_list = true,
  __index = list_index,
  __call = function(self, _, ctrl)
    local i = ctrl == nil and 1 or cursor[self] + 1
    cursor[self] = i
    local e = self[i]
    if e then return e[1], e[2] end
  end,
  __tostring = list_tostring,
}
function U.items(t) return setmetatable(t, ItemList) end
function U.pairs_list(t) return setmetatable(t, PairList) end
-- An OrderedDict's keys(), values() and items() print as Python's views do:
-- odict_keys(['weight', 'bias']).
local function view_of(base, name)
  local mt = {}
  for k, v in pairs(base) do mt[k] = v end
  mt.__tostring = function(self) return name .. '(' .. list_tostring(self) .. ')' end
  return mt
end
local KeysView, ValuesView, ItemsView =
  view_of(ItemList, 'odict_keys'), view_of(ItemList, 'odict_values'), view_of(PairList, 'odict_items')

-- ---- OrderedDict -----------------------------------------------------------
-- Insertion-ordered map used for registries and state_dict: d[key], d[key] = v
-- (nil removes), #d, pairs(d) in order, d:keys(), d:values(), d:items().
local OD = {}
local od_methods = {}
OD.__index = function(self, k)
  local m = od_methods[k]
  if m ~= nil then return m end
  return rawget(self, '_v')[k]
end
function OD.__newindex(self, k, v)
  local vals, keys = rawget(self, '_v'), rawget(self, '_k')
  if v == nil then
    if vals[k] ~= nil then
      for i, key in ipairs(keys) do
        if key == k then table.remove(keys, i) break end
      end
    end
  elseif vals[k] == nil then
    keys[#keys + 1] = k
  end
  vals[k] = v
end
function OD.__len(self) return #rawget(self, '_k') end
function OD.__pairs(self)
  local keys, vals, i = rawget(self, '_k'), rawget(self, '_v'), 0
  return function()
    i = i + 1
    local k = keys[i]
    if k ~= nil then return k, vals[k] end
  end, self, nil
end
function OD.__tostring(self)
  local keys, vals = rawget(self, '_k'), rawget(self, '_v')
  if #keys == 0 then return 'OrderedDict()' end
  local parts = {}
  for i, k in ipairs(keys) do parts[i] = '(' .. U.repr(k) .. ', ' .. U.repr(vals[k]) .. ')' end
  return 'OrderedDict([' .. table.concat(parts, ', ') .. '])'
end
OD.__name = 'OrderedDict'
function od_methods.keys(self) return setmetatable(table.move(rawget(self, '_k'), 1, #self, 1, {}), KeysView) end
function od_methods.values(self)
  local out, vals = {}, rawget(self, '_v')
  for i, k in ipairs(rawget(self, '_k')) do out[i] = vals[k] end
  return setmetatable(out, ValuesView)
end
function od_methods.items(self)
  local out, vals = {}, rawget(self, '_v')
  for i, k in ipairs(rawget(self, '_k')) do out[i] = {k, vals[k]} end
  return setmetatable(out, ItemsView)
end
function od_methods.get(self, k, default)
  local v = rawget(self, '_v')[k]
  if v == nil then return default end
  return v
end
function od_methods.contains(self, k) return rawget(self, '_v')[k] ~= nil end

-- OrderedDict() / OrderedDict{{'a', 1}, {'b', 2}} / OrderedDict(other_od).
function U.OrderedDict(init)
  local d = setmetatable({_k = {}, _v = {}}, OD)
  if getmetatable(init) == OD then
    for k, v in pairs(init) do d[k] = v end
  elseif init ~= nil then
    for _, kv in ipairs(init) do d[kv[1]] = kv[2] end
  end
  return d
end

-- ---- dict --------------------------------------------------------------------
-- Python's dict where PyTorch returns one (an optimizer's state_dict): an
-- OrderedDict that prints as {'lr': 0.1, 'foreach': None}. A key given with a
-- nil value at construction stays in the order and prints None, as PyTorch's
-- optimizers keep 'foreach': None; assigning nil later removes the key, as Lua does.
local Dict = {}
for k, v in pairs(OD) do Dict[k] = v end
Dict.__name = 'dict'
function Dict.__tostring(self)
  local keys, vals, parts = rawget(self, '_k'), rawget(self, '_v'), {}
  for i, k in ipairs(keys) do parts[i] = U.repr(k) .. ': ' .. U.repr(vals[k]) end
  return '{' .. table.concat(parts, ', ') .. '}'
end
-- U.dict{{'a', 1}, {'b', nil}}: the pairs in order.
function U.dict(pairs_list)
  local d = setmetatable({_k = {}, _v = {}}, Dict)
  for _, kv in ipairs(pairs_list or {}) do
    local k = kv[1]
    if rawget(d, '_v')[k] == nil then table.insert(rawget(d, '_k'), k) end
    rawget(d, '_v')[k] = kv[2]
  end
  return d
end
function U.is_od(v) local mt = getmetatable(v) return mt == OD or mt == Dict end
function U.is_dict(v) return getmetatable(v) == Dict end

-- Python's collections.Counter where PyTorch keeps one (MultiStepLR's
-- milestones): a dict of counts that prints most common first, ties in
-- insertion order, as Counter's repr does: Counter({3: 2, 1: 1}).
local Counter = {}
for k, v in pairs(OD) do Counter[k] = v end
Counter.__name = 'Counter'
function Counter.__tostring(self)
  local keys, vals = rawget(self, '_k'), rawget(self, '_v')
  if #keys == 0 then return 'Counter()' end
  local order = {}
  for i = 1, #keys do order[i] = i end
  table.sort(order, function(i, j)
    local a, b = vals[keys[i]], vals[keys[j]]
    if a ~= b then return a > b end
    return i < j
  end)
  local parts = {}
  for n, i in ipairs(order) do parts[n] = U.repr(keys[i]) .. ': ' .. U.repr(vals[keys[i]]) end
  return 'Counter({' .. table.concat(parts, ', ') .. '})'
end
-- U.counter{{3, 2}, {1, 1}}: the (key, count) pairs in insertion order.
function U.counter(pairs_list)
  local c = setmetatable({_k = {}, _v = {}}, Counter)
  for _, kv in ipairs(pairs_list or {}) do c[kv[1]] = kv[2] end
  return c
end
function U.is_counter(v) return getmetatable(v) == Counter end

-- A Python list of n Nones (LambdaLR's lr_lambdas in a state_dict: PyTorch
-- keeps no function in a checkpoint). A Lua array cannot hold nil, so it is
-- its own type: #l is n, l[i] is nil, it prints [None, None].
local NoneList = {__name = 'list'}
NoneList.__len = function(self) return rawget(self, 'n') end
NoneList.__index = function() return nil end
NoneList.__tostring = function(self)
  local parts = {}
  for i = 1, rawget(self, 'n') do parts[i] = 'None' end
  return '[' .. table.concat(parts, ', ') .. ']'
end
function U.nones(n) return setmetatable({n = n}, NoneList) end
function U.is_nones(v) return getmetatable(v) == NoneList end

-- Python's tuple where PyTorch shows one (Adam's betas in a state_dict): a Lua
-- array that prints (0.9, 0.999).
local Tuple = {__name = 'tuple'}
function Tuple.__tostring(self)
  local parts = {}
  for i = 1, #self do parts[i] = U.repr(self[i]) end
  return '(' .. table.concat(parts, ', ') .. (#self == 1 and ',)' or ')')
end
function U.tuple(t) return setmetatable(table.move(t, 1, #t, 1, {}), Tuple) end
function U.is_tuple(v) return getmetatable(v) == Tuple end

-- Ordered (key, value) pairs of an OrderedDict or of a plain table (sorted keys,
-- since a plain Lua table has no order).
function U.ordered_items(t)
  local out = {}
  if U.is_od(t) or U.is_counter(t) then
    for k, v in pairs(t) do out[#out + 1] = {k, v} end
  else
    local keys = {}
    for k in pairs(t) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
    for i, k in ipairs(keys) do out[i] = {k, t[k]} end
  end
  return out
end
