-- torch.Generator is bound in C++ (bindings/random_lib.cpp): an mt19937 of
-- its own, drawn as PyTorch's CPU generator, taken as {generator = g} by
-- rand, randn, randint, randperm, normal, bernoulli, multinomial and the
-- in-place fills. Here: the helpers the DataLoader's shuffles use (30_data.lua).
local U = torch._util

local GeneratorMT = getmetatable(torch.Generator())
function U.is_generator(v) return getmetatable(v) == GeneratorMT end

-- PyTorch's CPU randperm: Fisher-Yates with one raw draw per step.
function U.randperm_list(n, gen)
  local r = {}
  for i = 1, n do r[i] = i - 1 end
  for i = 0, n - 2 do
    local z = gen:_random() % (n - i)
    r[i + 1], r[i + z + 1] = r[i + z + 1], r[i + 1]
  end
  return r
end

-- A 64-bit seed drawn the way torch.empty((), dtype=torch.int64).random_()
-- draws it: two raw draws of `gen`, or of the default CPU generator, whose
-- float64 rand() consumes the same two draws and keeps their low 53 bits
-- (all that a seed of a new generator uses: its low 32 bits).
function U.draw_seed(gen)
  if gen ~= nil then return gen:_random64() & 0x7fffffffffffffff end
  local v = torch.rand({}, {dtype = torch.float64}):item()
  return math.tointeger(v * 2.0 ^ 53)
end
