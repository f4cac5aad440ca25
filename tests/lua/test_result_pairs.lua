-- Functions that return a pair (max(dim), sort, topk, std_mean, ...) give two
-- Lua results; PyTorch's x.max(1)[1] spelling would index the first, so it is
-- an error saying what to write (Note [Indexing a pair of results]), while the
-- pair's other spellings keep working.
-- Run: gpulab tests/lua/test_result_pairs.lua
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
local dir = arg[0]:match('^(.*)[/\\]') or '.'

local x = torch.tensor({{1., 5., 3.}, {7., 2., 0.}})

local function raises_with(fn, text)
  local ok, err = pcall(fn)
  T.truthy(not ok and tostring(err):find(text, 1, true), ('%q in %s'):format(text, tostring(err)))
end

T.test("PyTorch's output.max(1)[1] is an error naming .indices, never a values element", function()
  T.raises(function() return x:max(1)[1] end,
    "TypeError: max(...)[i]: max returns values and indices as two Lua results (PyTorch's named tuple), so [i] would "
      .. "index values. Write max(...).indices for PyTorch's max(...)[1], or local values, indices = max(...)")
  raises_with(function() return torch.max(x, 1)[0] end, 'max(...)[i]')
  raises_with(function() return x:sort()[1] end, 'sort(...).indices')
  raises_with(function() return x:topk(2)[1] end, 'topk(...)[i]')
  T.raises(function() return torch.std_mean(x, 0)[1] end,
    "TypeError: std_mean(...)[i]: std_mean returns std and mean as two Lua results (PyTorch's tuple), so [i] would "
      .. 'index std. Write local std, mean = std_mean(...)')
end)

T.test('the pair read any other way is as before', function()
  local v, i = x:max(1)
  T.eq(tostring(i), 'tensor([1, 0])')
  T.eq(tostring(x:max(1).indices), 'tensor([1, 0])')
  T.eq(tostring(x:max(1).values[1]), 'tensor(7.)')
  local r = x:max(1)
  T.eq(tostring(r[0]), 'tensor(5.)', 'a kept result indexes as the tensor it is')
  T.eq(tostring(x:max(1):sum()), 'tensor(12.)')
  T.eq(tostring(x:max()), 'tensor(7.)')
  T.eq(tostring(x:argmax(1)[0]), 'tensor(1)')
end)

T.test('at the prompt too', function()
  local out = dofile(dir .. '/repl_driver.lua')({'x = torch.tensor({{1., 5.}, {7., 2.}})', 'x:max(1)[1]', 'x:max(1)'})
  T.eq(out[2], "TypeError: max(...)[i]: max returns values and indices as two Lua results (PyTorch's named tuple), so "
       .. "[i] would index values. Write max(...).indices for PyTorch's max(...)[1], or local values, indices = max(...)"
       .. "\nhint: PyTorch's [0] and [1] are .values and .indices here: x:max(1).indices")
  T.eq(out[3], 'torch.return_types.max(\nvalues=tensor([5., 7.]),\nindices=tensor([1, 0]))')
end)

T.finish()
