-- nn.Parameter and nn.Module, the base of every layer and model.
--
--   local Model = nn.Module:extend('Model')
--   function Model:__init(n) nn.Module.__init(self); self.fc = nn.Linear(n, 2) end
--   function Model:forward(x) return self.fc(x) end
--   local m = Model(5); m(x)
--
-- Like PyTorch's __setattr__, assigning a Module or an nn.Parameter to a field
-- registers it (in insertion order) in self._modules / self._parameters; any
-- other value is stored as a plain field. Lookups try the class (methods)
-- first, then the registries. Lists returned by parameters(), children(), ...
-- are arrays that also work as generic-for iterators:
--   for p in m:parameters() do ... end
--   for name, p in m:named_parameters() do ... end
local U = torch._util
torch.nn = torch.nn or {}
local nn = torch.nn
nn.functional = nn.functional or {}
_G.nn = nn
local OrderedDict = U.OrderedDict

-- ---- Parameter -------------------------------------------------------------
-- Parameters are ordinary tensors marked in this weak table (and in C++ when
-- torch._set_parameter exists, so that they print 'Parameter containing:').
nn._is_param = nn._is_param or setmetatable({}, {__mode = 'k'})

function nn.Parameter(...)
  local a = U.parse('Parameter', {'data:Tensor', 'requires_grad:bool'}, {requires_grad = true}, ...)
  local p = (a.data or torch.empty(0)):detach()
  p.requires_grad = a.requires_grad
  nn._is_param[p] = true
  if torch._set_parameter then torch._set_parameter(p) end
  return p
end

local function is_module(v)
  local mt = type(v) == 'table' and getmetatable(v)
  return mt and mt.__is_module == true or false
end
nn._is_module = is_module

-- ---- instance plumbing -----------------------------------------------------
local function init_internals(self)
  if rawget(self, '_modules') == nil then
    rawset(self, '_parameters', OrderedDict())
    rawset(self, '_buffers', OrderedDict())
    rawset(self, '_non_persistent', {})
    rawset(self, '_modules', OrderedDict())
    if rawget(self, 'training') == nil then rawset(self, 'training', true) end
  end
end

local function pytype(v)  -- the type name PyTorch's messages show
  if U.is_tensor(v) then return v:type() end
  if is_module(v) then return v:_get_name() end
  return U.type_name(v)
end

local function setattr(self, k, v)
  init_internals(self)
  local params, bufs, mods = rawget(self, '_parameters'), rawget(self, '_buffers'), rawget(self, '_modules')
  if v ~= nil and nn._is_param[v] then
    bufs[k], mods[k] = nil, nil
    params[k] = v
  elseif is_module(v) then
    params[k], bufs[k] = nil, nil
    mods[k] = v
  elseif params:contains(k) then
    if v ~= nil then
      error(("TypeError: cannot assign '%s' as parameter '%s' (torch.nn.Parameter or None expected)")
        :format(pytype(v), k), 0)
    end
    params[k] = nil
  elseif mods:contains(k) then
    if v ~= nil then
      error(("TypeError: cannot assign '%s' as child module '%s' (torch.nn.Module or None expected)")
        :format(pytype(v), k), 0)
    end
    mods[k] = nil
  elseif bufs:contains(k) then
    if v ~= nil and not U.is_tensor(v) then
      error(("TypeError: cannot assign '%s' as buffer '%s' (torch.Tensor or None expected)"):format(pytype(v), k), 0)
    end
    bufs[k] = v
  else
    rawset(self, k, v)
  end
end

local function make_meta(cls)
  local meta = {__is_module = true, __name = cls.__name}
  -- net[i] = m goes to the class's __setitem (ModuleList), as Python's item assignment
  meta.__newindex = function(self, k, v)
    local set = math.type(k) == 'integer' and cls.__setitem
    if set then return set(self, k, v) end
    return setattr(self, k, v)
  end
  meta.__index = function(self, k)
    local v = cls[k]
    if v ~= nil then return v end
    local params = rawget(self, '_parameters')
    if params == nil then return k == 'training' or nil end
    v = rawget(params, '_v')[k]
    if v ~= nil then return v end
    v = rawget(rawget(self, '_buffers'), '_v')[k]
    if v ~= nil then return v end
    v = rawget(rawget(self, '_modules'), '_v')[k]
    if v ~= nil then return v end
    local get = (math.type(k) == 'integer' or (type(k) == 'string' and k:find(':', 1, true))) and cls.__getitem
    if get then return get(self, k) end
    return nil
  end
  meta.__call = function(self, ...)
    if rawget(self, '_hooks') then return U.call_with_hooks(self, ...) end  -- 11_nn_hooks.lua
    -- `for layer in net do`: a generic for calls its iterator with (nil, control)
    if select('#', ...) == 2 and (...) == nil and torch._for_arity() > 0 then return U.module_step(self, select(2, ...)) end
    return self:forward(...)
  end
  meta.__tostring = function(self) return self:__tostring() end
  meta.__len = function(self)
    local f = cls.__len
    if not f then error(("TypeError: object of type '%s' has no len()"):format(cls.__name), 0) end
    return f(self)
  end
  return meta
end

local Module = U.class('Module', nil, make_meta)
nn.Module = Module
U.init_module, U.pytype = init_internals, pytype  -- for the other nn chunks
U.doc(Module, [[nn.Module: the base class of layers and models.
  local Model = nn.Module:extend('Model')
  function Model:__init(n) nn.Module.__init(self); self.fc = nn.Linear(n, 2) end
  function Model:forward(x) return self.fc(x) end
Assigning a module or nn.Parameter to self.x registers it. Methods: parameters(), named_parameters(),
children(), modules(), state_dict(), load_state_dict(sd, {strict=}), to(device|dtype), cuda(i), cpu(),
float(), double(), train(), eval(), zero_grad(), apply(fn). Lists also iterate:
  for name, p in model:named_parameters() do ... end]])

function Module.new(cls, ...)
  local self = setmetatable({}, cls.__meta)
  init_internals(self)
  self:__init(...)
  return self
end

-- Calling it again (or never: new() already did) is harmless.
function Module:__init(...)
  U.parse('Module.__init__', {}, nil, ...)
  init_internals(self)
end

function Module:forward()
  error(('NotImplementedError: Module [%s] is missing the required "forward" function'):format(self:_get_name()), 0)
end

function Module:_get_name() return U.class_of(self).__name end
function Module:extra_repr() return '' end

function Module:register_parameter(...)
  local a = U.parse('register_parameter', {'name:str!', 'param'}, nil, ...)
  local name, param = a.name, a.param
  init_internals(self)
  assert(type(name) == 'string' and name ~= '' and not name:find('.', 1, true), 'invalid parameter name')
  if param ~= nil and not nn._is_param[param] then
    error(("TypeError: cannot assign '%s' object to parameter '%s' (torch.nn.Parameter or None required)")
      :format(pytype(param), name), 0)
  end
  self._parameters[name] = param
end

function Module:register_buffer(...)
  local a = U.parse('register_buffer', {'name:str!', 'tensor', 'persistent'}, {persistent = true}, ...)
  init_internals(self)
  self._buffers[a.name] = a.tensor
  self._non_persistent[a.name] = (not a.persistent) or nil
end

function Module:add_module(...)
  local a = U.parse('add_module', {'name:str!', 'module'}, nil, ...)
  local name, module = a.name, a.module
  init_internals(self)
  if module ~= nil and not is_module(module) then
    error(('TypeError: %s is not a Module subclass'):format(pytype(module)), 0)
  end
  self._modules[name] = module
end
Module.register_module = Module.add_module

-- ---- traversal -------------------------------------------------------------
local function join(prefix, name) return prefix == '' and name or prefix .. '.' .. name end

-- Pre-order walk (self first), each module once, as PyTorch's named_modules.
local function walk(m, prefix, memo, out)
  if memo[m] then return out end
  memo[m] = true
  init_internals(m)
  out[#out + 1] = {prefix, m}
  for name, child in pairs(m._modules) do walk(child, join(prefix, name), memo, out) end
  return out
end

-- Own members of `field` first, then each submodule's; shared tensors once.
local function named_members(self, field, prefix, recurse)
  init_internals(self)
  local mods = recurse and walk(self, prefix, {}, {}) or {{prefix, self}}
  local out, seen = {}, {}
  for _, e in ipairs(mods) do
    for k, v in pairs(e[2][field]) do
      if not seen[v] then
        seen[v] = true
        out[#out + 1] = {join(e[1], k), v}
      end
    end
  end
  return out
end

local function values(pairs_) local out = {} for i, e in ipairs(pairs_) do out[i] = e[2] end return U.items(out) end

function Module:named_parameters(...)
  local a = U.parse('named_parameters', {'prefix:str', 'recurse:bool'}, {prefix = '', recurse = true}, ...)
  return U.pairs_list(named_members(self, '_parameters', a.prefix, a.recurse))
end
function Module:parameters(...)
  local a = U.parse('parameters', {'recurse:bool'}, {recurse = true}, ...)
  return values(named_members(self, '_parameters', '', a.recurse))
end
function Module:named_buffers(...)
  local a = U.parse('named_buffers', {'prefix:str', 'recurse:bool'}, {prefix = '', recurse = true}, ...)
  return U.pairs_list(named_members(self, '_buffers', a.prefix, a.recurse))
end
function Module:buffers(...)
  local a = U.parse('buffers', {'recurse:bool'}, {recurse = true}, ...)
  return values(named_members(self, '_buffers', '', a.recurse))
end
function Module:named_children()
  init_internals(self)
  local out, seen = {}, {}
  for name, m in pairs(self._modules) do
    if not seen[m] then seen[m] = true; out[#out + 1] = {name, m} end
  end
  return U.pairs_list(out)
end
function Module:children() return values(self:named_children()) end
function Module:named_modules(...)
  local a = U.parse('named_modules', {'memo', 'prefix:str'}, {prefix = ''}, ...)
  return U.pairs_list(walk(self, a.prefix, a.memo or {}, {}))
end
function Module:modules() return values(walk(self, '', {}, {})) end

-- ---- state -----------------------------------------------------------------
function Module:train(...)
  local mode = U.parse('train', {'mode'}, {mode = true}, ...).mode
  if type(mode) ~= 'boolean' then error('ValueError: training mode is expected to be boolean', 0) end
  for _, m in ipairs(self:modules()) do rawset(m, 'training', mode) end
  return self
end
function Module:eval(...)
  U.parse('eval', {}, nil, ...)
  return self:train(false)
end

function Module:requires_grad_(...)
  local requires_grad = U.parse('requires_grad_', {'requires_grad:bool'}, {requires_grad = true}, ...).requires_grad
  for _, p in ipairs(self:parameters()) do p.requires_grad = requires_grad end
  return self
end

function Module:zero_grad(...)
  local a = U.parse('zero_grad', {'set_to_none:bool'}, {set_to_none = true}, ...)
  for _, p in ipairs(self:parameters()) do
    local g = p.grad
    if g ~= nil then
      if a.set_to_none then p.grad = nil else U.with_grad_mode(false, g.zero_, g) end
    end
  end
end

function Module:apply(...)
  local fn = U.parse('apply', {'fn!'}, nil, ...).fn
  if not (type(fn) == 'function' or (getmetatable(fn) or {}).__call) then U.type_error('apply', 'fn', 'callable', fn) end
  for _, m in ipairs(self:children()) do U.nested(nil, m.apply, m, fn) end  -- Note [Recursion depth]
  fn(self)
  return self
end

-- ---- moving and casting ----------------------------------------------------
-- fn(t) -> tensor. Parameters (and their grads) keep their identity: their
-- storage is rebound with p.data = fn(p), as PyTorch's Module._apply does.
function Module:_apply(fn)
  for _, m in ipairs(self:children()) do U.nested(nil, m._apply, m, fn) end  -- Note [Recursion depth]
  U.with_grad_mode(false, function()
    for _, p in pairs(self._parameters) do
      local new = fn(p)
      if new ~= p then p.data = new end
      local g = p.grad
      if g ~= nil then
        local ng = fn(g)
        if ng ~= g then g.data = ng end
      end
    end
    for k, b in pairs(self._buffers) do self._buffers[k] = fn(b) end
  end)
  return self
end

-- module:to(device | dtype | tensor | 'cuda:1' | {device=, dtype=}); integer
-- indices mean CUDA devices and dtypes only cast floating-point tensors.
local function parse_to(...)
  local dev, dt
  local function take(v)
    local k = U.kind(v)
    if k == 'torch.Tensor' then dev, dt = v.device, v.dtype
    elseif k == 'torch.dtype' then dt = v
    elseif k == 'torch.device' then dev = v
    elseif k == 'string' then
      if U.kind(torch[v]) == 'torch.dtype' then dt = torch[v] else dev = torch.device(v) end
    elseif math.type(v) == 'integer' then dev = torch.device('cuda', v)
    elseif U.is_plain_table(v) then
      for key in pairs(v) do
        if type(key) == 'string' and key ~= 'device' and key ~= 'dtype' and key ~= 'non_blocking' then
          error(("TypeError: to() got an unexpected keyword argument '%s'"):format(key), 0)
        end
      end
      for _, x in ipairs(v) do take(x) end
      if v.device ~= nil then take(v.device) end
      if v.dtype ~= nil then take(v.dtype) end
    elseif k ~= 'boolean' and v ~= nil then  -- booleans: non_blocking
      error(('TypeError: to() received an invalid combination of arguments - got (%s)'):format(k), 0)
    end
  end
  for i = 1, select('#', ...) do take((select(i, ...))) end
  if dt and not dt.is_floating_point then
    error(('TypeError: nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=%s')
      :format(tostring(dt)), 0)
  end
  return dev, dt
end

function Module:to(...)
  local dev, dt = parse_to(...)
  return self:_apply(function(t)
    local d = (dt and t.dtype.is_floating_point) and dt or nil
    if dev and d then return t:to(dev, d) end
    if dev then return t:to(dev) end
    if d then return t:to(d) end
    return t
  end)
end
function Module:cuda(...)
  local device = U.parse('cuda', {'device'}, nil, ...).device
  return self:_apply(function(t) if device == nil then return t:cuda() end return t:cuda(device) end)
end
function Module:cpu(...) U.parse('cpu', {}, nil, ...) return self:_apply(function(t) return t:cpu() end) end
local function float_cast(method)
  return function(self, ...)
    U.parse(method, {}, nil, ...)
    return self:_apply(function(t) return t.dtype.is_floating_point and t[method](t) or t end)
  end
end
Module.float, Module.double, Module.half = float_cast('float'), float_cast('double'), float_cast('half')

-- ---- printing (PyTorch's Module.__repr__ and _addindent) -------------------
local function addindent(s, n)
  local lines = U.split_lines(s)
  if #lines == 1 then return s end
  local pad = string.rep(' ', n)
  for i = 2, #lines do lines[i] = pad .. lines[i] end
  return table.concat(lines, '\n')
end
U.addindent = addindent  -- for ModuleList's repr (13_nn_module_list.lua)

function Module:__tostring()
  init_internals(self)
  local extra = self:extra_repr()
  local extra_lines = (extra ~= nil and extra ~= '') and U.split_lines(extra) or {}
  local lines = table.move(extra_lines, 1, #extra_lines, 1, {})
  local nchild = 0
  for key, m in pairs(self._modules) do
    nchild = nchild + 1
    -- the child's __tostring called from Lua, not through tostring (a C call each level)
    local repr = (getmetatable(m) or {}).__tostring or tostring
    local text = U.nested('while getting the str of an object', repr, m)  -- Note [Recursion depth]
    lines[#lines + 1] = '(' .. key .. '): ' .. addindent(text, 2)
  end
  local s = self:_get_name() .. '('
  if #lines > 0 then
    if #extra_lines == 1 and nchild == 0 then s = s .. extra_lines[1]
    else s = s .. '\n  ' .. table.concat(lines, '\n  ') .. '\n' end
  end
  return s .. ')'
end
