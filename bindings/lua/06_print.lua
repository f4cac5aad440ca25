-- print(...) shows a plain Lua table as Python's print shows a list or a
-- dict, the way the echo shows it: a DataLoader batch prints as
-- [tensor([0., 1.]), tensor([0, 1])] and x:tolist() as its numbers, not as
-- table: 0x55d0.... Everything else prints as Lua prints it (tostring,
-- __tostring): tensors, modules, tuples, strings, numbers.
local raw_print, repr, getmetatable, select, type, unpack = print, repr, getmetatable, select, type, table.unpack

local function plain_table(v) return type(v) == 'table' and getmetatable(v) == nil end

function print(...)
  local n = select('#', ...)
  for i = 1, n do
    if plain_table((select(i, ...))) then
      local args = {...}
      for j = i, n do
        if plain_table(args[j]) then args[j] = repr(args[j]) end
      end
      return raw_print(unpack(args, 1, n))
    end
  end
  return raw_print(...)
end
