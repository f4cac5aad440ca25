-- torch.save / torch.load: the Lua half. The C half (bindings/io_lib.cpp)
-- writes and reads the safetensors file (tensor/io/safetensors.h).
--
-- torch.save flattens the object into (name, tensor) pairs: a lone tensor is
-- one entry named 'tensor'; a table's entries are named by their keys, nested
-- tables joined with '.', so a state_dict's 'fc.weight' stays 'fc.weight' and
-- Python's safetensors.torch.load_file sees the names PyTorch would use.
-- The file's metadata records what torch.load needs to rebuild the object:
--   gpulab.kind           'tensor', or the root table's kind: 'dict' (an OrderedDict,
--                         e.g. a state_dict), 'table', or one of the codes below
--   gpulab.tables         the nested tables, one per line: '<code> <name>'
--   gpulab.order[.<name>] an ordered table's keys in order, one per line
--   gpulab.value.<name>   numbers, strings, booleans: 'i:5', 'f:0.1', 's:text', 'b:true';
--                         a list of n Nones (LambdaLR's lr_lambdas): 'n:<n>'
--   gpulab.device.<name>  each tensor's device (written by the C half)
--   gpulab.grad.<name>    'r' for a tensor that requires grad, 'p' for an nn.Parameter that
--                         does not, 'pr' for one that does (PyTorch keeps both in its pickle)
-- Note [Checkpoint tables]: a table's code is 't' (a plain table), 'd' (an
-- OrderedDict), 'y' (a dict, such as an optimizer's state_dict), 'c' (a
-- Counter: MultiStepLR's milestones) or 'u' (a tuple), with '#' after it when its keys are integers (a Lua array, the
-- state's parameter numbers): the keys are written in decimal in the names
-- and read back as integers. An ordered table's keys keep their order, a key
-- with no value included (a dict's None).
local U = torch._util
local save_tensors, load_tensors = torch._save_tensors, torch._load_tensors

local function fail(kind, fmt, ...)
  error(kind .. ': ' .. fmt:format(...), 0)
end

local function typename(v)
  if type(v) == 'table' then
    local mt = getmetatable(v)
    return type(mt) == 'table' and type(mt.__name) == 'string' and mt.__name or 'table'
  end
  return U.kind(v)
end

-- The (key, value) pairs of a table in a stable order, and its code (Note
-- [Checkpoint tables]). Other objects are refused.
local function entries(t, where)
  local mt = getmetatable(t)
  local out, code = {}, 't'
  if U.is_tuple(t) then
    for i = 1, #t do out[i] = {i, t[i]} end
    return out, 'u#'
  elseif mt ~= nil then
    if type(mt) == 'table' and mt.__pairs then
      for k, v in pairs(t) do out[#out + 1] = {k, v} end
      code = U.is_dict(t) and 'y' or U.is_counter(t) and 'c' or 'd'
    elseif type(t.state_dict) == 'function' then
      fail('TypeError', 'torch.save: cannot save a %s object%s; save its state_dict() instead', typename(t), where)
    else
      fail('TypeError', 'torch.save: cannot save a %s object%s', typename(t), where)
    end
  else
    for k, v in next, t do out[#out + 1] = {k, v} end
  end
  local ints, strs = 0, 0
  for _, kv in ipairs(out) do
    local k = kv[1]
    if math.type(k) == 'integer' then ints = ints + 1
    elseif type(k) == 'string' then strs = strs + 1
    else
      fail('TypeError', 'torch.save: table keys must be strings or integers, got the %s key %s%s', U.type_name(k),
           tostring(k), where)
    end
  end
  if ints > 0 and strs > 0 then
    fail('TypeError', 'torch.save: a table\'s keys must be all strings or all integers%s', where)
  end
  if code == 't' then table.sort(out, function(a, b) return a[1] < b[1] end) end
  return out, ints > 0 and code .. '#' or code
end

local function encode(v)
  if type(v) == 'boolean' then return 'b:' .. tostring(v) end
  if U.is_nones(v) then return 'n:' .. #v end
  if type(v) == 'string' then return 's:' .. v end
  if math.type(v) == 'integer' then return 'i:' .. tostring(v) end
  return 'f:' .. ('%.17g'):format(v)
end

local function decode(s)
  local tag, body = s:sub(1, 2), s:sub(3)
  if tag == 'b:' then return body == 'true' end
  if tag == 's:' then return body end
  if tag == 'i:' then return math.tointeger(tonumber(body)) end
  if tag == 'n:' then  -- a count from the file: bounded, since a hostile one could ask for any
    local count = math.tointeger(tonumber(body))
    return count and count >= 0 and count <= 1 << 20 and U.nones(count) or nil
  end
  if tag == 'f:' then
    if body == 'inf' then return math.huge elseif body == '-inf' then return -math.huge end
    if body:find('nan') then return 0 / 0 end
    return tonumber(body) + 0.0
  end
  return nil
end

-- requires_grad and nn.Parameter, kept as PyTorch's pickle keeps them.
local function mark_grad(acc, name, t)
  local param = nn._is_param[t] == true
  if param or t.requires_grad then acc.meta['gpulab.grad.' .. name] = (param and 'p' or '') .. (t.requires_grad and 'r' or '') end
end
local function restore_grad(meta, name, t)
  local g = meta['gpulab.grad.' .. name]
  if g == nil then return t end
  if g:find('p', 1, true) then return nn.Parameter(t, g:find('r', 1, true) ~= nil) end
  if g:find('r', 1, true) and t.dtype.is_floating_point then t:requires_grad_(true) end
  return t
end

local function flatten(obj, prefix, acc, active)
  local where = prefix == '' and '' or (' (at %q)'):format(prefix:sub(1, -2))
  if active[obj] then fail('RuntimeError', 'torch.save: the object contains a reference cycle%s', where) end
  active[obj] = true
  local list, code = entries(obj, where)
  local ordered = code:sub(1, 1) == 'd' or code:sub(1, 1) == 'y' or code:sub(1, 1) == 'c'
  local order = {}
  for _, kv in ipairs(list) do
    local k, v = kv[1], kv[2]
    local name = prefix .. tostring(k)
    if acc.used[name] then fail('RuntimeError', 'torch.save: two entries are both named %q', name) end
    acc.used[name] = true
    if ordered then
      if tostring(k):find('\n', 1, true) then fail('ValueError', 'torch.save: keys cannot contain newlines: %q', name) end
      order[#order + 1] = tostring(k)
    end
    if U.is_tensor(v) then
      acc.names[#acc.names + 1] = name
      acc.tensors[#acc.tensors + 1] = v
      mark_grad(acc, name, v)
    elseif type(v) == 'table' and not U.is_nones(v) then
      if name:find('\n', 1, true) then fail('ValueError', 'torch.save: table names cannot contain newlines: %q', name) end
      local slot = #acc.tables + 1
      acc.tables[slot] = name
      acc.tables[slot] = flatten(v, name .. '.', acc, active) .. ' ' .. name
    elseif type(v) == 'number' or type(v) == 'string' or type(v) == 'boolean' or U.is_nones(v) then
      acc.meta['gpulab.value.' .. name] = encode(v)
    elseif v ~= nil then  -- nil: a dict's None, kept by the order alone
      fail('TypeError', 'torch.save: cannot save a %s (at %q): checkpoints hold tensors and tables of them, '
           .. 'plus numbers, strings and booleans', typename(v), name)
    end
  end
  if ordered and #order > 0 then acc.meta['gpulab.order' .. (prefix == '' and '' or '.' .. prefix:sub(1, -2))] =
    table.concat(order, '\n') end
  active[obj] = nil
  return code
end

local save_keywords = {obj = true, f = true, pickle_module = true, pickle_protocol = true,
                       _use_new_zipfile_serialization = true}
function torch.save(obj, f, ...)
  if f == nil and U.is_plain_table(obj) and #obj == 0 and next(obj) ~= nil then  -- torch.save{obj=, f=}
    for k in pairs(obj) do
      if not save_keywords[k] then fail('TypeError', "save() got an unexpected keyword argument '%s'", tostring(k)) end
    end
    obj, f = obj.obj, obj.f
  end
  local n = select('#', ...)
  local last = n > 0 and select(n, ...) or nil
  if n == 1 and U.is_plain_table(last) and #last == 0 then  -- torch.save(obj, f, {pickle_protocol=})
    for k in pairs(last) do
      if not save_keywords[k] then fail('TypeError', "save() got an unexpected keyword argument '%s'", tostring(k)) end
    end
  elseif n > 0 then
    U.too_many('save', 2, 2 + n)
  end
  if type(f) ~= 'string' then
    fail('TypeError', 'torch.save(obj, f): f must be a file path (a string), got %s', typename(f))
  end
  local acc = {names = {}, tensors = {}, meta = {}, tables = {}, used = {}}
  local kind
  if U.is_tensor(obj) then
    kind = 'tensor'
    acc.names[1], acc.tensors[1] = 'tensor', obj
    mark_grad(acc, 'tensor', obj)
  elseif type(obj) == 'table' then
    local code = flatten(obj, '', acc, {})
    kind = code == 'd' and 'dict' or code == 't' and 'table' or code
  else
    fail('TypeError', 'torch.save: cannot save a %s; checkpoints hold a tensor or a table of tensors', typename(obj))
  end
  acc.meta['gpulab.kind'] = kind
  if #acc.tables > 0 then acc.meta['gpulab.tables'] = table.concat(acc.tables, '\n') end
  -- a tail call: see Note [Interrupted save] in io_lib.cpp
  return save_tensors(f, acc.names, acc.tensors, acc.meta)
end

-- map_location: nil, 'cpu' / 'cuda:1' / torch.device, or a table mapping locations.
local function location(v, what)
  if type(v) == 'string' then return v end
  if U.kind(v) == 'torch.device' then return tostring(v) end
  if math.type(v) == 'integer' and v >= 0 then return 'cuda:' .. v end
  fail('TypeError', 'torch.load: %s must be a string or a torch.device, got %s', what, typename(v))
end

local function map_arg(m)
  if m == nil then return nil end
  if type(m) == 'table' and getmetatable(m) == nil then
    local out = {}
    for k, v in pairs(m) do out[location(k, 'a map_location key')] = location(v, 'a map_location value') end
    return out
  end
  if type(m) == 'function' then
    fail('TypeError', 'torch.load: map_location as a function is not supported; use a string, a torch.device or a table')
  end
  return location(m, 'map_location')
end

local load_keywords = {map_location = true, weights_only = true, mmap = true}
-- A trailing table is the options when empty or naming a keyword; otherwise
-- it is a map_location table ({['cuda:1'] = 'cuda:0'}).
local function is_options(t)
  if not U.is_plain_table(t) or #t > 0 then return false end
  if next(t) == nil then return true end
  for k in pairs(t) do
    if load_keywords[k] then return true end
  end
  return false
end

-- The table (and key) a flat name belongs to: its longest prefix that is a
-- table. Keys of an integer-keyed table are read back as integers.
local function place(root, nodes, name)
  local node, key = root, name
  for i = #name, 1, -1 do
    if name:byte(i) == 46 then  -- '.'
      local c = nodes[name:sub(1, i - 1)]
      if c then node, key = c, name:sub(i + 1) break end
    end
  end
  if node.int then key = math.tointeger(tonumber(key)) or key end
  return node, key
end

local function set(node, key, v)
  if node.vals[key] == nil then node.seq[#node.seq + 1] = key end
  node.vals[key] = v
end

-- A node (one table of the file) as the Lua value it was saved from.
local function build(node)
  local vals = node.vals
  for k, v in pairs(vals) do
    if type(v) == 'table' and v.vals then vals[k] = build(v) end
  end
  local code = node.code
  if code == 't' then return vals end
  if code == 'u' then return U.tuple(vals) end
  -- ordered: the recorded order, then whatever it does not name
  local keys, listed = {}, {}
  for line in (node.order or ''):gmatch('[^\n]+') do
    local k = node.int and math.tointeger(tonumber(line)) or line
    if not listed[k] then keys[#keys + 1], listed[k] = k, true end
  end
  for _, k in ipairs(node.seq) do
    if not listed[k] then keys[#keys + 1], listed[k] = k, true end
  end
  if code == 'y' or code == 'c' then
    local pairs_list = {}
    for i, k in ipairs(keys) do pairs_list[i] = {k, vals[k]} end
    return code == 'y' and U.dict(pairs_list) or U.counter(pairs_list)
  end
  local od = U.OrderedDict()
  for _, k in ipairs(keys) do od[k] = vals[k] end
  return od
end

local function new_node(code, order)
  return {code = code:sub(1, 1), int = code:sub(2, 2) == '#', order = order, vals = {}, seq = {}}
end

local function rebuild(names, tensors, meta)
  for i, name in ipairs(names) do tensors[i] = restore_grad(meta, name, tensors[i]) end
  local kind = meta['gpulab.kind']
  if kind == 'tensor' and #names == 1 then return tensors[1] end
  local code = kind == 'table' and 't' or (kind == 'dict' or kind == nil) and 'd' or kind
  if not code:match('^[tdyuc]#?$') then code = 'd' end
  local root, nodes = new_node(code, meta['gpulab.order']), {}
  for line in (meta['gpulab.tables'] or ''):gmatch('[^\n]+') do
    local c, name = line:match('^([tdyuc]#?) (.*)$')
    if c then
      local parent, key = place(root, nodes, name)
      nodes[name] = new_node(c, meta['gpulab.order.' .. name])
      set(parent, key, nodes[name])
    end
  end
  for i, name in ipairs(names) do
    local parent, key = place(root, nodes, name)
    set(parent, key, tensors[i])
  end
  local values = {}
  for k in pairs(meta) do
    if k:sub(1, 13) == 'gpulab.value.' then values[#values + 1] = k end
  end
  table.sort(values)
  for _, k in ipairs(values) do
    local parent, key = place(root, nodes, k:sub(14))
    set(parent, key, decode(meta[k]))
  end
  return build(root)
end

function torch.load(f, ...)
  local pos, n, kw = {...}, select('#', ...), nil
  while n > 0 and pos[n] == nil do n = n - 1 end
  if U.is_plain_table(f) and f[1] ~= nil then  -- torch.load{path, map_location=...}
    kw, f, pos, n = f, f[1], {f[2]}, f[2] ~= nil and 1 or 0
  elseif U.is_plain_table(f) and next(f) ~= nil then  -- torch.load{f=path, map_location=...}
    kw, f, pos, n = f, f.f, {}, 0
  elseif n >= 1 and is_options(pos[n]) then
    kw, n = pos[n], n - 1
  end
  if n > 1 then fail('TypeError', 'load() takes from 1 to 2 positional arguments but %d were given', n + 1) end
  local map = n >= 1 and pos[1] or nil  -- not the options table itself
  if kw then
    for k in pairs(kw) do
      if type(k) == 'string' and not load_keywords[k] and k ~= 'f' then
        fail('TypeError', "load() got an unexpected keyword argument '%s'", k)
      end
    end
    if kw.map_location ~= nil then map = kw.map_location end
  end
  if type(f) ~= 'string' then fail('TypeError', 'torch.load(f): f must be a file path (a string), got %s', typename(f)) end
  return rebuild(load_tensors(f, map_arg(map)))
end
