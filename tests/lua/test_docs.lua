-- help(f) answers for every public function: those bound in C and those
-- written in Lua (bindings/lua/90_docs.lua), in every module a learner reaches.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')

local function undocumented()
  local seen, missing = {}, {}
  local function scan(t, name)
    if seen[t] then return end
    seen[t] = true
    for k, v in pairs(t) do
      if type(k) == 'string' and k:sub(1, 1) ~= '_' then
        if type(v) == 'function' and (torch._doc(v) or '') == '' then missing[#missing + 1] = name .. '.' .. k end
        -- plain tables are modules; tables with a metatable are classes and objects
        if type(v) == 'table' and getmetatable(v) == nil then scan(v, name .. '.' .. k) end
      end
    end
  end
  scan(torch, 'torch')
  scan(nn, 'nn')
  scan(time, 'time')
  for k, v in pairs(torch.Tensor) do  -- the tensor methods
    if type(k) == 'string' and k:sub(1, 1) ~= '_' and type(v) == 'function' and (torch._doc(v) or '') == '' then
      missing[#missing + 1] = 'Tensor:' .. k
    end
  end
  table.sort(missing)
  return table.concat(missing, ' ')
end

T.test('every public function has a doc string', function()
  T.eq(undocumented(), '', 'functions without a doc string')
end)

T.test('help prints a function\'s doc and lists modules', function()
  local out = {}
  local print0 = print
  print = function(s) out[#out + 1] = tostring(s) end
  local ok, e = pcall(function()
    help(torch.save)
    help(nn.init)
  end)
  print = print0
  assert(ok, e)
  T.truthy(out[1]:find('torch.save(obj, path)', 1, true), 'help(torch.save)')
  T.truthy(table.concat(out, '\n'):find('xavier_uniform_%s+nn.init.xavier_uniform_'), 'help(nn.init) lists doc lines')
end)

T.finish()
