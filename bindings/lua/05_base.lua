-- Helpers shared by the Lua half of the library (nn, optim, data): grad-mode
-- scopes, PyTorch-style argument parsing, a small class system and
-- Python-style printing of plain values (Python's containers are in
-- 05_containers.lua). Everything lives in torch._util so the later chunks can
-- share it.
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

-- ---- recursion depth -------------------------------------------------------
-- Note [Recursion depth]
-- Python stops a recursion after 1000 frames with RecursionError. A module
-- that holds itself (m.sub = m) recurses for ever in PyTorch's state_dict(),
-- load_state_dict(), to(), apply() and repr(), and so it does here; but Lua's
-- own limit comes only after some 200000 levels, each with a longer key
-- prefix than the last: state_dict() took 10 GB in 10 s before failing with
-- "not enough memory" (found by the eleventh fuzz campaign). The module
-- walkers stop where Python does, with Python's error.
U.MAX_DEPTH = 1000
local function too_deep(what)
  error('RecursionError: maximum recursion depth exceeded ' .. (what or 'while calling a Python object'), 0)
end
-- For a walker that passes its own depth down: fails past Python's limit.
function U.check_depth(depth, what)
  if depth > U.MAX_DEPTH then too_deep(what) end
end
-- For a walker that recurses through methods (m:apply(fn) of each child):
-- fn(...) one level deeper, the count restored however it ends (a
-- to-be-closed variable, not a pcall: each pcall would be a C call, and C
-- calls nest only some 200 deep).
local depth = 0
local one_level = setmetatable({}, {__close = function() depth = depth - 1 end})
function U.nested(what, fn, ...)
  if depth >= U.MAX_DEPTH then too_deep(what) end
  depth = depth + 1
  local _ <close> = one_level
  return fn(...)
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
  local missing = {}
  for _, spec in ipairs(names) do
    if spec ~= '*' then
      local name, ty, req = spec:match('^([^:!]+):?([^!]*)(!?)$')
      local v = r[name]
      if req == '!' and v == nil then missing[#missing + 1] = name end
      if #missing == 0 and ty ~= '' then U.check(fname, name, ty, v) end
    end
  end
  if #missing > 0 then
    -- A class's __init__ is Python in PyTorch: CPython's wording, every missing name at once.
    if not fname:find('%.__init__$') then U.required(fname, missing[1], nil) end
    local quoted = {}
    for i, m in ipairs(missing) do quoted[i] = "'" .. m .. "'" end
    local list = #quoted == 1 and quoted[1] or #quoted == 2 and (quoted[1] .. ' and ' .. quoted[2])
      or (table.concat(quoted, ', ', 1, #quoted - 1) .. ', and ' .. quoted[#quoted])
    error(('TypeError: %s() missing %d required positional argument%s: %s'):format(fname, #missing,
      #missing == 1 and '' or 's', list), 0)
  end
  return r
end

-- ---- classes ---------------------------------------------------------------
-- U.class(name, parent, make_meta): a class table. Instances share cls.__meta,
-- built by make_meta(cls) (inherited from the parent when nil), so each family
-- (modules, datasets, optimizers) decides its metamethods once. Calling the
-- class makes an instance through cls:new(...). Subclass with Base:extend(name).
-- A class prints as Python's, <class 'torch.nn.modules.linear.Linear'>: the
-- library's classes name their PyTorch module (U.class_modules, filled by
-- the files that define them), a learner's class is __main__'s.
U.class_modules = {}
U.loading_library = true  -- until the library has loaded (70_strict_names.lua)
function U.class_qualname(c)
  local mod = rawget(c, '__module') or U.class_modules[c.__name]
  return mod and (mod .. '.' .. c.__name) or c.__name
end
function U.class(name, parent, make_meta)
  local cls = {__name = name, super = parent, __module = not U.loading_library and '__main__' or nil}
  setmetatable(cls, {
    __index = parent,
    __call = function(c, ...) return c:new(...) end,
    __tostring = function(c) return "<class '" .. U.class_qualname(c) .. "'>" end,
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
