-- nn.ModuleList: modules held in a list and registered under '0', '1', ...,
-- so that parameters(), state_dict() ('0.weight'), :to() and printing see
-- them, as PyTorch's ModuleList (torch/nn/modules/container.py). It has no
-- forward: a model's forward loops over it.
local U = torch._util
local nn = torch.nn
local Module = nn.Module

local ModuleList = Module:extend('ModuleList')
nn.ModuleList = ModuleList
U.doc(ModuleList, [[nn.ModuleList(modules=nil): a list of modules, registered as submodules ('0', '1', ...).
ml[0] is the first (0-based, negative from the end), ml['1:'] a new ModuleList of a slice, #ml the count;
ml[i] = m replaces one, ml[i] = nil deletes it (Python's del ml[i]); ml:append(m), ml:extend({m1, m2}),
ml:insert(i, m), ml:pop(i). Iterate with `for m in ml do ... end`. It has no forward of its own.]])

local function is_a(obj, cls)
  local c = U.class_of(obj)
  while c do
    if c == cls then return true end
    c = c.super
  end
  return false
end

-- The modules of a Python iterable: a Lua array, or a ModuleList or
-- Sequential (which Python iterates); anything else is PyTorch's TypeError.
local function modules_of(modules)
  if U.is_plain_table(modules) then return modules end
  if is_a(modules, ModuleList) or is_a(modules, nn.Sequential) then
    local out = {}
    for _, m in pairs(modules._modules) do out[#out + 1] = m end
    return out
  end
  if type(modules) == 'string' then  -- a str is iterable in Python: its characters
    local out = {}
    for c in modules:gmatch('.') do out[#out + 1] = c end
    return out
  end
  error('TypeError: ModuleList.extend should be called with an iterable, but got ' .. U.type_name(modules), 0)
end

function ModuleList:__init(...)
  local a = U.parse('ModuleList.__init__', {'modules'}, nil, ...)
  Module.__init(self)
  if a.modules ~= nil then self:extend(a.modules) end
end

function ModuleList:__len() return #self._modules end

-- PyTorch's _get_abs_string_index: the key of item idx, or its IndexError.
local function key_of(self, idx)
  local n = #self._modules
  if math.type(idx) ~= 'integer' then U.type_error('ModuleList.__getitem__', 'idx', 'int or slice', idx) end
  if idx < -n or idx >= n then error(('IndexError: index %d is out of range'):format(idx), 0) end
  return tostring(idx < 0 and idx + n or idx)
end

function ModuleList:__getitem(idx)
  if type(idx) == 'string' then  -- a slice: a new list of those modules, numbered from 0
    local picked, vals, keys = {}, rawget(self._modules, '_v'), rawget(self._modules, '_k')
    for _, i in ipairs(U.slice_indices(idx, #keys)) do picked[#picked + 1] = vals[keys[i + 1]] end
    return U.class_of(self)(picked)
  end
  return rawget(self._modules, '_v')[key_of(self, idx)]
end

-- Python's del ml[idx]: the later modules move down one, keeping 0..n-1.
local function delete(self, idx)
  local key = key_of(self, idx)
  local old = self._modules
  old[key] = nil
  local renumbered = U.OrderedDict()
  for _, m in pairs(old) do renumbered[tostring(#renumbered)] = m end
  rawset(self, '_modules', renumbered)
end

-- ml[i] = m (Python's setattr under the key: its TypeError for a non-module);
-- ml[i] = nil deletes, as Lua's nil assignment does elsewhere.
function ModuleList:__setitem(idx, module)
  if module == nil then return delete(self, idx) end
  self[key_of(self, idx)] = module
end

function ModuleList:append(...)
  local module = U.parse('append', {'module'}, nil, ...).module
  self:add_module(tostring(#self), module)
  return self
end

function ModuleList:extend(...)
  local modules = U.parse('extend', {'modules'}, nil, ...).modules
  if modules == nil and U.is_plain_table((...)) then modules = {} end  -- extend({}): the parser read keywords
  local offset = #self
  for i, m in ipairs(modules_of(modules)) do self:add_module(tostring(offset + i - 1), m) end
  return self
end

-- As PyTorch's insert: later modules shift up one; the module is not checked.
function ModuleList:insert(...)
  local a = U.parse('insert', {'index:int!', 'module'}, nil, ...)
  local mods = self._modules
  local vals = rawget(mods, '_v')
  for i = #mods, a.index + 1, -1 do
    local prev = vals[tostring(i - 1)]
    if prev == nil then error(("KeyError: '%d'"):format(i - 1), 0) end
    mods[tostring(i)] = prev
  end
  mods[tostring(a.index)] = a.module
end

function ModuleList:pop(...)
  local key = U.parse('pop', {'key:int!'}, nil, ...).key
  local v = self[key]
  delete(self, key)
  return v
end

-- `for m in ml do`: Lua's generic for calls ml(nil, previous), two arguments.
-- Any other call is PyTorch's error for a module without forward.
local cursor = setmetatable({}, {__mode = 'k'})
ModuleList.__iterable = 'forward'  -- the iteration is forward's (U.module_step)
function ModuleList:forward(...)
  if select('#', ...) == 2 and (...) == nil then
    local i = select(2, ...) == nil and 0 or cursor[self] + 1
    cursor[self] = i
    if i < #self then return rawget(self._modules, '_v')[tostring(i)] end
    return nil
  end
  return Module.forward(self, ...)
end

-- PyTorch's ModuleList.__repr__: consecutive modules that print the same
-- are one line, '(0-2): 3 x Linear(...)'; extra_repr is not shown.
function ModuleList:__tostring()
  local reprs = {}
  for _, m in pairs(self._modules) do
    local repr = (getmetatable(m) or {}).__tostring or tostring
    reprs[#reprs + 1] = U.nested('while getting the str of an object', repr, m)  -- Note [Recursion depth]
  end
  if #reprs == 0 then return self:_get_name() .. '()' end
  local lines, first = {}, 1
  for i = 1, #reprs do
    if i == #reprs or reprs[i + 1] ~= reprs[i] then
      local text = first == i and ('(%d): %s'):format(first - 1, reprs[i])
        or ('(%d-%d): %d x %s'):format(first - 1, i - 1, i - first + 1, reprs[i])
      lines[#lines + 1] = U.addindent(text, 2)
      first = i + 1
    end
  end
  return self:_get_name() .. '(\n  ' .. table.concat(lines, '\n  ') .. '\n)'
end
