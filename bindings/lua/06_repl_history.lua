-- IPython's output history at the prompt and in the Jupyter kernel: _, __ and
-- ___ hold the last three results echoed, Out[N] and _N the result of In[N]
-- (several results as one tuple, as IPython holds `x, y`). Nothing is kept
-- for a cell that echoes nothing (nil, or a trailing `;`). As in IPython,
-- these keep their values alive: an echoed CUDA tensor stays allocated until
-- `Out = {}` and `_ = nil` (or three more results) let it go. And as IPython,
-- _ and friends stop following once the learner assigns one of them.
-- interpreter/evaluate.cpp calls R.output after the echo.
local R = torch._util.repl
local ipairs, rawget, rawset, select, table, tonumber, _G = ipairs, rawget, rawset, select, table, tonumber, _G
local tuple = torch._tuple

-- IPython starts them as empty strings, at the first cell: a script or a
-- lesson, which run no cells, keeps Lua's globals as they are.
local NAMES = {'_', '__', '___'}
local held = {'', '', ''}  -- what _, __ and ___ were last set to here
local begin, started = R.begin, false
function R.begin(...)
  if not started then
    started = true
    for i, name in ipairs(NAMES) do
      if rawget(_G, name) == nil then rawset(_G, name, held[i]) end
    end
  end
  return begin(...)
end
local out = {}   -- the Out this file made (a learner's own Out is left alone)
rawset(_G, 'Out', out)

function R.output(...)
  local v = select('#', ...) == 1 and ... or tuple(table.pack(...))  -- n counts a trailing nil
  local follow = true
  for i, name in ipairs(NAMES) do
    local now = rawget(_G, name)
    if now ~= nil and now ~= held[i] then follow = false end
  end
  held[3], held[2], held[1] = held[2], held[1], v
  if follow then
    for i, name in ipairs(NAMES) do rawset(_G, name, held[i]) end
  end
  local n = tonumber((R.cell or ''):match('^In%[(%d+)%]$'))
  if n then
    if rawget(_G, 'Out') == out then out[n] = v end
    rawset(_G, '_' .. n, v)
  end
end
