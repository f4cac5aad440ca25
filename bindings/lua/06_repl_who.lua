-- IPython's %who and %whos (interpreter/timing.cpp runs the magics): the
-- learner's own variables, sorted, not the names the session started with
-- (torch, nn, F, help, ...), nor those beginning with _ or the output history
-- (In, Out), as IPython hides its start-up namespace. `%who Tensor` keeps the
-- names whose type has that name; the types are Python's (int, str, Tensor,
-- Linear). The layout is IPython 9's, to the character.
local U = torch._util
local R = U.repl
local pairs, type, tostring, rawget, rawequal, getmetatable, pcall, print, io, math, table, _G =
  pairs, type, tostring, rawget, rawequal, getmetatable, pcall, print, io, math, table, _G

local hidden = {}  -- name -> the value it held when the session started
local HISTORY = {In = true, Out = true, arg = true}  -- (arg: the script's arguments, set after start-up)

-- Called once the session is ready, before the learner's first line (interpreter/session.cpp).
function R.hide_namespace()
  for k, v in pairs(_G) do hidden[k] = v end
end

local function type_of(v)
  if type(v) == 'function' then return 'function' end
  if type(v) == 'table' then
    if U.is_namespace(v) then return 'module' end
    local mt = getmetatable(v)
    if type(mt) == 'table' and mt.__call and rawget(v, '__meta') then return 'type' end  -- a class (U.class)
  end
  return (U.type_name(v):gsub('^torch%.', ''))  -- torch.device -> device, as type(x).__name__
end

local function names(filter)
  local out = {}
  for k, v in pairs(_G) do
    if type(k) == 'string' and k:sub(1, 1) ~= '_' and not HISTORY[k] and not rawequal(hidden[k], v)
       and (not filter or filter[type_of(v)]) then
      out[#out + 1] = k
    end
  end
  table.sort(out)
  return out
end

-- str(v) as %whos shows it: one line, its middle cut past 49 characters.
local function data_of(name, v, vtype)
  if vtype == 'list' then return 'n=' .. #v end
  if vtype == 'dict' then
    local n = 0
    for _ in pairs(v) do n = n + 1 end
    return 'n=' .. n
  end
  local s
  if type(v) == 'boolean' then
    s = v and 'True' or 'False'
  elseif math.type(v) == 'float' then
    s = U.pyfloat(v)
  elseif vtype == 'function' then
    s = ('<function %s at %s>'):format(name, tostring(v):match('0x%x+') or '?')
  elseif vtype == 'module' then
    s = ("<module '%s'>"):format(U.name_of(v) or name)
  else
    local ok, r = pcall(tostring, v)
    s = ok and r or '<object (str() failed)>'
  end
  s = s:gsub('\n', '\\n')
  if #s < 50 then return s end
  return s:sub(1, 25) .. '<...>' .. s:sub(-25)
end

-- %who [TYPE ...] (detailed: %whos)
function R.who(args, detailed)
  local filter
  for t in (args or ''):gmatch('%S+') do
    filter = filter or {}
    filter[t] = true
  end
  local vars = names(filter)
  if #vars == 0 then
    print(filter and 'No variables match your requested type.' or 'Interactive namespace is empty.')
    return
  end
  if not detailed then
    local count = 0
    for _, k in ipairs(vars) do
      io.write(k, '\t ')
      count = count + 1
      if count > 8 then
        count = 0
        io.write('\n')
      end
    end
    io.write('\n')
    return
  end
  local types, varwidth, typewidth = {}, #'Variable', #'Type'
  for i, k in ipairs(vars) do
    types[i] = type_of(rawget(_G, k))
    varwidth, typewidth = math.max(varwidth, #k), math.max(typewidth, #types[i])
  end
  varwidth, typewidth = varwidth + 3, typewidth + 3
  local pad = function(s, w) return s .. (' '):rep(w - #s) end
  print(pad('Variable', varwidth) .. pad('Type', typewidth) .. ' Data/Info')
  print(('-'):rep(varwidth + typewidth + #'Data/Info' + 1))
  for i, k in ipairs(vars) do
    print(pad(k, varwidth) .. pad(types[i], typewidth) .. ' ' .. data_of(k, rawget(_G, k), types[i]))
  end
end
