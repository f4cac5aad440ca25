-- dir(x): the names an object answers to, as Python's dir() lists them, sorted:
-- a tensor's fields and methods, a module's or optimizer's fields and methods
-- (its class chain included), a namespace's functions (dir(torch.nn)); dir()
-- alone, the globals. Lua's metamethods (__index, ...) are left out: they are
-- not names a learner calls.
local function add_keys(t, seen, out)
  for k in pairs(t) do
    if type(k) == 'string' and not seen[k] and not k:match('^__') then
      seen[k] = true
      out[#out + 1] = k
    end
  end
end

function dir(...)
  local out, seen = {}, {}
  if select('#', ...) == 0 then
    add_keys(_G, seen, out)
  else
    local x = ...
    local mt = getmetatable(x)
    if torch.is_tensor(x) then
      for _, k in ipairs(mt.__fields) do seen[k] = true out[#out + 1] = k end
      add_keys(mt.__methods, seen, out)
    elseif type(x) == 'string' then
      add_keys(string, seen, out)
    elseif type(x) == 'table' then
      -- a module's parameters, buffers and submodules (net.weight, net.fc1), as
      -- nn.Module.__dir__ adds them; then the object and its class chain (__index
      -- tables), as Python's dir walks the MRO
      for _, part in ipairs({'_parameters', '_buffers', '_modules'}) do
        local d = rawget(x, part)
        if type(d) == 'table' then pcall(add_keys, d, seen, out) end
      end
      local t, depth = x, 0
      while type(t) == 'table' and depth < 16 do
        local ok = pcall(add_keys, t, seen, out)  -- an OrderedDict's pairs gives its entries
        if not ok then break end
        local m = getmetatable(t)
        t = type(m) == 'table' and (rawget(m, '__class') ~= t and rawget(m, '__class') or rawget(m, '__index')) or nil
        depth = depth + 1
      end
    elseif type(mt) == 'table' and type(rawget(mt, '__index')) == 'table' then  -- a device, a dtype, ...
      add_keys(rawget(mt, '__index'), seen, out)
    end
  end
  table.sort(out)
  return out
end
