-- "Did you mean": Python 3.12's suggestion for a misspelt name (the same
-- edit distance and cut-off), and what a REPL error needs to find the
-- candidates: the names an object answers to, the locals of the failing
-- frame, dotted paths resolved without raising. Used by 06_repl_errors.lua
-- and help (00_help.lua).
local U = torch._util
local pcall, debug, ipairs, pairs, next, type = pcall, debug, ipairs, pairs, next, type
local getmetatable, rawget, rawlen, math, torch, _G = getmetatable, rawget, rawlen, math, torch, _G

-- ---- did you mean (Python 3.12's traceback._compute_suggestion_error) ------
local function levenshtein(a, b, max_cost)
  if a == b then return 0 end
  local la, lb = #a, #b
  local prev = {}
  for j = 0, lb do prev[j] = j * 2 end
  for i = 1, la do
    local cur, ca, best = {[0] = i * 2}, a:sub(i, i), i * 2
    for j = 1, lb do
      local cb = b:sub(j, j)
      local sub = ca == cb and 0 or (ca:lower() == cb:lower() and 1 or 2)
      cur[j] = math.min(prev[j] + 2, cur[j - 1] + 2, prev[j - 1] + sub)
      if cur[j] < best then best = cur[j] end
    end
    if best > max_cost then return max_cost + 1 end
    prev = cur
  end
  return prev[lb]
end

-- The candidate nearest to `name`, or nil (candidates: a list of strings).
function U.suggest(name, candidates)
  if type(name) ~= 'string' or #name > 40 then return nil end
  local best, best_d
  for _, c in ipairs(candidates) do
    if type(c) == 'string' and c ~= name and #c <= 40 then
      local max_cost = (#name + #c + 3) * 2 // 6
      local d = levenshtein(name, c, max_cost)
      if d <= max_cost and (best_d == nil or d < best_d or (d == best_d and c < best)) then
        best, best_d = c, d
      end
    end
  end
  return best
end

local function keys_of(t, out, seen)
  out, seen = out or {}, seen or {}
  if type(t) == 'table' then
    for k in next, t do
      if type(k) == 'string' and not seen[k] and not k:match('^_') then
        seen[k] = true
        out[#out + 1] = k
      end
    end
  end
  return out, seen
end

local tensor_fields = {'shape', 'dtype', 'device', 'grad', 'grad_fn', 'requires_grad', 'is_leaf', 'T', 'mT',
                       'ndim', 'is_cuda', 'is_cpu', 'data', 'itemsize', 'nbytes', 'retains_grad'}

-- Names an object answers to: a tensor's methods and fields, a table's keys
-- and its class's methods.
local function names_of(obj)
  if U.is_tensor(obj) then
    local out, seen = keys_of(torch.Tensor)
    for _, f in ipairs(tensor_fields) do if not seen[f] then out[#out + 1] = f end end
    return out
  end
  local out, seen = keys_of(obj)
  -- objects of the Lua classes (nn modules, optimizers): their registries
  -- (parameters, buffers, submodules) and their class chain's methods
  if type(obj) == 'table' and U.class_of(obj) then
    for _, reg in ipairs({'_parameters', '_buffers', '_modules'}) do
      local od = rawget(obj, reg)
      if U.is_od(od) then
        for k in pairs(od) do
          if type(k) == 'string' and not seen[k] then seen[k] = true out[#out + 1] = k end
        end
      end
    end
    local cls = U.class_of(obj)
    for _ = 1, 16 do
      if type(cls) ~= 'table' then break end
      keys_of(cls, out, seen)
      cls = rawget(cls, 'super')
    end
  end
  local mt = getmetatable(obj)
  for _ = 1, 8 do
    if type(mt) ~= 'table' then break end
    keys_of(mt.__methods, out, seen)
    local idx = rawget(mt, '__index')
    if type(idx) ~= 'table' then break end
    keys_of(idx, out, seen)
    mt = getmetatable(idx)
  end
  return out
end

-- A namespace (torch, nn, math): a plain table of functions and tables.
-- (Note [Undefined names]: torch and its parts have a metatable saying __namespace.)
local function is_namespace(t)
  if type(t) ~= 'table' or rawlen(t) > 0 then return false end
  local mt = getmetatable(t)
  if type(mt) == 'table' and rawget(mt, '__namespace') then return true end  -- torch's modules, say so themselves
  if mt ~= nil then return false end
  local fns, n = 0, 0
  for _, v in next, t do
    n = n + 1
    if type(v) == 'function' then fns = fns + 1 end
  end
  return fns > 0 and n >= 4
end

-- The dotted global name of a table (torch.cuda), by a short walk of _G.
local function name_of(t)
  for k, v in next, _G do
    if v == t then return k end
  end
  for k, v in next, _G do
    if type(v) == 'table' and k ~= '_G' and k ~= 'package' then
      for k2, v2 in next, v do
        if v2 == t and type(k2) == 'string' then return k .. '.' .. k2 end
        if type(v2) == 'table' and type(k2) == 'string' and not k2:match('^_') then
          for k3, v3 in next, v2 do
            if v3 == t and type(k3) == 'string' then return k .. '.' .. k2 .. '.' .. k3 end
          end
        end
      end
    end
  end
end

-- A module's name as Python's AttributeError gives it: its path under torch
-- (torch.nn.functional for F), else its global name.
local torch_lib = torch
local function module_name(t)
  if t == torch_lib then return 'torch' end
  for k, v in next, torch_lib do
    if v == t and type(k) == 'string' then return 'torch.' .. k end
  end
  for k, v in next, torch_lib do
    if type(v) == 'table' and type(k) == 'string' and not k:match('^_') then
      for k2, v2 in next, v do
        if v2 == t and type(k2) == 'string' then return 'torch.' .. k .. '.' .. k2 end
      end
    end
  end
  return name_of(t)
end

-- ---- names visible in a frame ----------------------------------------------
local function visible(level)
  local vars = {}
  if level then
    for i = 1, 250 do
      local name, value = debug.getlocal(level, i)
      if name == nil then break end
      if not name:match('^%(') then vars[name] = {value} end
    end
    local info = debug.getinfo(level, 'f')
    if info and info.func then
      for i = 1, 250 do
        local name, value = debug.getupvalue(info.func, i)
        if name == nil then break end
        if name ~= '_ENV' and vars[name] == nil then vars[name] = {value} end
      end
    end
  end
  return vars
end

-- Resolves `a.b.c` in a frame (locals, upvalues, then globals); nil if it cannot.
local function resolve(path, vars)
  vars = vars or {}
  local v
  for part in path:gmatch('[^.]+') do
    if v == nil then
      if vars[part] then v = vars[part][1] else v = rawget(_G, part) end
    else
      if type(v) ~= 'table' and not U.is_tensor(v) then return nil end
      local ok, got = pcall(function() return v[part] end)
      if not ok then return nil end
      v = got
    end
    if v == nil then return nil end
  end
  return v
end

local function global_names(vars)
  local out, seen = keys_of(_G)
  for name in pairs(vars or {}) do
    if not seen[name] then out[#out + 1] = name end
  end
  return out
end

local function with_suggestion(text, name, candidates)
  local s = U.suggest(name, candidates)
  return s and (text .. ". Did you mean: '" .. s .. "'?") or text
end

U.names_of, U.is_namespace, U.name_of, U.module_name = names_of, is_namespace, name_of, module_name
U.visible, U.resolve, U.global_names, U.with_suggestion = visible, resolve, global_names, with_suggestion
