-- Module:state_dict() and Module:load_state_dict(), following PyTorch's
-- torch/nn/modules/module.py so keys and error messages match it exactly.
local U = torch._util
local Module = torch.nn.Module
local OrderedDict, init_internals, pytype = U.OrderedDict, U.init_module, U.pytype

function Module:state_dict(...)
  local a = U.parse('state_dict', {'destination', 'prefix:str', 'keep_vars:bool'}, {prefix = '', keep_vars = false}, ...)
  if a.destination ~= nil and type(a.destination) ~= 'table' then
    U.type_error('state_dict', 'destination', 'dict', a.destination)
  end
  local dest = a.destination or OrderedDict()
  local function save(m, prefix, depth)
    U.check_depth(depth)  -- Note [Recursion depth]: a module that holds itself
    init_internals(m)
    for k, p in pairs(m._parameters) do dest[prefix .. k] = a.keep_vars and p or p:detach() end
    for k, b in pairs(m._buffers) do
      if not m._non_persistent[k] then dest[prefix .. k] = a.keep_vars and b or b:detach() end
    end
    for k, c in pairs(m._modules) do save(c, prefix .. k .. '.', depth + 1) end
  end
  save(self, a.prefix, 1)
  return dest
end

-- What a non-strict load returns (PyTorch's _IncompatibleKeys namedtuple).
local IncompatibleKeys = {__name = '_IncompatibleKeys'}
IncompatibleKeys.__tostring = function(r)
  if #r.missing_keys == 0 and #r.unexpected_keys == 0 then return '<All keys matched successfully>' end
  return ('_IncompatibleKeys(missing_keys=%s, unexpected_keys=%s)'):format(U.repr(r.missing_keys), U.repr(r.unexpected_keys))
end

local function strip_kind(msg) return (tostring(msg):gsub('^%a*Error: ', '')) end

-- Loads in place (param:copy_ under no_grad). The same walk as PyTorch's
-- load/_load_from_state_dict, so missing/unexpected keys keep its order.
-- The state dict is always the first argument (a plain table of string keys
-- would otherwise read as keywords): load_state_dict(sd, {strict=false}).
function Module:load_state_dict(state_dict, ...)
  local a = U.parse('load_state_dict', {'strict:bool'}, {strict = true}, ...)
  a.state_dict = state_dict
  if type(state_dict) ~= 'table' then
    error(('TypeError: Expected state_dict to be dict-like, got %s.'):format(pytype(state_dict)), 0)
  end
  local missing, unexpected, errs = {}, {}, {}
  local function load(m, items, prefix, depth)
    U.check_depth(depth)  -- Note [Recursion depth]: a module that holds itself
    init_internals(m)
    local given, local_state = {}, {}
    for _, kv in ipairs(items) do given[kv[1]] = kv[2] end
    for k, p in pairs(m._parameters) do local_state[#local_state + 1] = {k, p} end
    for k, b in pairs(m._buffers) do
      if not m._non_persistent[k] then local_state[#local_state + 1] = {k, b} end
    end
    local local_names = {}
    for _, e in ipairs(local_state) do
      local name, param = e[1], e[2]
      local_names[name] = true
      local key = prefix .. name
      local input = given[key]
      if input == nil then
        missing[#missing + 1] = key
      elseif not U.is_tensor(input) then
        errs[#errs + 1] = ('While copying the parameter named "%s", expected torch.Tensor or Tensor-like object '
          .. "from checkpoint but received <class '%s'>"):format(key, pytype(input))
      else
        if param:dim() == 0 and input:dim() == 1 and input:size(0) == 1 then input = input[0] end
        if input.shape ~= param.shape then
          errs[#errs + 1] = ('size mismatch for %s: copying a param with shape %s from checkpoint, the shape in '
            .. 'current model is %s.'):format(key, tostring(input.shape), tostring(param.shape))
        else
          local ok, err = pcall(U.with_grad_mode, false, param.copy_, param, input)
          if not ok then
            errs[#errs + 1] = ('While copying the parameter named "%s", whose dimensions in the model are %s and '
              .. "whose dimensions in the checkpoint are %s, an exception occurred : ('%s',)."):format(
              key, tostring(param.shape), tostring(input.shape), strip_kind(err))
          end
        end
      end
    end
    for _, kv in ipairs(items) do
      local key = kv[1]
      if key:sub(1, #prefix) == prefix then
        local rest = key:sub(#prefix + 1)
        local head = rest:match('^([^.]*)%.')
        if head then
          if not m._modules:contains(head) then unexpected[#unexpected + 1] = key end
        elseif not local_names[rest] then
          unexpected[#unexpected + 1] = key
        end
      end
    end
    for name, child in pairs(m._modules) do
      local cp = prefix .. name .. '.'
      local sub = {}
      for _, kv in ipairs(items) do
        if kv[1]:sub(1, #cp) == cp then sub[#sub + 1] = kv end
      end
      load(child, sub, cp, depth + 1)
    end
  end
  local items = U.ordered_items(a.state_dict)
  for _, kv in ipairs(items) do kv[1] = tostring(kv[1]) end
  load(self, items, '', 1)
  local function quoted(keys)
    local q = {}
    for i, k in ipairs(keys) do q[i] = '"' .. k .. '"' end
    return table.concat(q, ', ')
  end
  if a.strict then
    if #unexpected > 0 then table.insert(errs, 1, ('Unexpected key(s) in state_dict: %s. '):format(quoted(unexpected))) end
    if #missing > 0 then table.insert(errs, 1, ('Missing key(s) in state_dict: %s. '):format(quoted(missing))) end
  end
  if #errs > 0 then
    error(('RuntimeError: Error(s) in loading state_dict for %s:\n\t%s'):format(self:_get_name(), table.concat(errs, '\n\t')), 0)
  end
  return setmetatable({missing_keys = missing, unexpected_keys = unexpected}, IncompatibleKeys)
end
