-- Python's containers as PyTorch shows them, on Lua tables: lists that also
-- iterate (parameters()), OrderedDict (state_dict) and its views, dict,
-- Counter, a list of Nones and tuple. Part of torch._util (05_base.lua).
local U = torch._util

-- ---- lists that also iterate -----------------------------------------------
-- module:parameters() returns an array (ipairs, #, optimizers) that is also a
-- generic-for iterator: `for p in model:parameters() do`. Named variants hold
-- {name, value} pairs and iterate as `for name, p in model:named_parameters()`.
local cursor = setmetatable({}, {__mode = 'k'})
-- Note [__pretty] (bindings/repr.cpp): each container says what it is, and
-- repr() prints it as Python's repr and the echo as IPython's display.
local function list_pretty(self)
  if not getmetatable(self).__pairs_list then return 'list', table.move(self, 1, #self, 1, {}) end
  local items = {}
  for i, e in ipairs(self) do items[i] = U.tuple(e) end
  return 'list', items
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
  __pretty = list_pretty,
  __tostring = repr,
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
  __pretty = list_pretty,
  __tostring = repr,
}
function U.items(t) return setmetatable(t, ItemList) end
function U.pairs_list(t) return setmetatable(t, PairList) end
-- An OrderedDict's keys(), values() and items() print as Python's views do:
-- odict_keys(['weight', 'bias']).
local function view_of(base, name)
  local mt = {}
  for k, v in pairs(base) do mt[k] = v end
  -- IPython has no printer of its own for these views: their repr, on one line.
  mt.__pretty = nil
  mt.__tostring = function(self) return name .. '(' .. repr(select(2, list_pretty(self))) .. ')' end
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
-- OrderedDict([(k, v), ...]), or OrderedDict() when empty, as IPython's printer of it.
function OD.__pretty(self)
  local keys, vals, items = rawget(self, '_k'), rawget(self, '_v'), {}
  for i, k in ipairs(keys) do items[i] = U.tuple({k, vals[k]}) end
  return 'call', 'OrderedDict', #keys == 0 and {} or {items}
end
OD.__tostring = repr
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
function Dict.__pretty(self)
  local keys, vals, pairs_ = rawget(self, '_k'), rawget(self, '_v'), {}
  for i, k in ipairs(keys) do pairs_[i] = {k, vals[k]} end
  return 'dict', pairs_
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
function Counter.__pretty(self)
  local keys, vals = rawget(self, '_k'), rawget(self, '_v')
  if #keys == 0 then return 'call', 'Counter', {} end
  local order = {}
  for i = 1, #keys do order[i] = i end
  table.sort(order, function(i, j)
    local a, b = vals[keys[i]], vals[keys[j]]
    if a ~= b then return a > b end
    return i < j
  end)
  local pairs_ = {}
  for n, i in ipairs(order) do pairs_[n] = {keys[i], vals[keys[i]]} end
  return 'call', 'Counter', {U.dict(pairs_)}
end
Counter.__tostring = repr
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
NoneList.__pretty = function(self) return 'list', {n = rawget(self, 'n')} end
NoneList.__tostring = repr
function U.nones(n) return setmetatable({n = n}, NoneList) end
function U.is_nones(v) return getmetatable(v) == NoneList end

-- Python's tuple where PyTorch returns or shows one (x:split(2), Adam's betas in
-- a state_dict): a Lua array that prints (0.9, 0.999). Its metatable is the
-- C++ one (bindings/repr.cpp) that split and chunk give their results.
local Tuple = getmetatable(torch._tuple({}))
function U.tuple(t) return torch._tuple(table.move(t, 1, #t, 1, {})) end
-- Counted from 1 like every Lua array; Python's [0] gets an error that says so.
function Tuple.__index(_, k)
  if k == 0 then
    error('IndexError: index 0 of a Lua tuple: tuples such as x:split(2) count from 1, so the first entry\n'
      .. 'is [1] (Python\'s [0]). Tensors, dims and devices count from 0.', 2)
  end
end
function U.is_tuple(v) return getmetatable(v) == Tuple end

-- Python's unpacking of an item into `names` values (Note [for X, y in
-- loader]): whole for one name (or an unknown count), a list's or tuple's
-- entries for several, with Python's ValueError when the counts differ.
function U.unpack_item(item, names)
  if item == nil or names == nil or names < 2 or not (U.is_plain_table(item) or U.is_tuple(item)) then return item end
  local n = U.is_tuple(item) and (item.n or #item) or #item
  if n > names then error(('ValueError: too many values to unpack (expected %d)'):format(names), 0) end
  if n < names then error(('ValueError: not enough values to unpack (expected %d, got %d)'):format(names, n), 0) end
  return table.unpack(item, 1, n)
end

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
