-- torch.Generator: a CPU random generator of its own, the Mersenne Twister
-- (mt19937) that PyTorch's CPUGeneratorImpl runs, so that
--   local g = torch.Generator():manual_seed(42)
--   torch.randperm(10, {generator = g})
-- gives PyTorch's numbers. The DataLoader uses it for its shuffles (30_data.lua).
-- Lua 5.4 integers are 64-bit, so the 32-bit arithmetic is masked.
local U = torch._util

local Generator = {}
Generator.__index = Generator
Generator.__name = 'torch.Generator'
Generator.__doc = [[torch.Generator(): a CPU random generator of its own (PyTorch's mt19937).
  g:manual_seed(s) (returns g), g:initial_seed(), g:seed();
  torch.randperm(n, {generator = g}); DataLoader(ds, {shuffle = true, generator = g}).]]
local M32 = 0xffffffff
local DEFAULT_SEED = 67280421310721  -- c10::default_rng_seed_val

local function seed_state(g, seed)
  local mt = g._mt
  mt[0] = seed & M32
  for i = 1, 623 do
    local prev = mt[i - 1]
    mt[i] = (1812433253 * (prev ~ (prev >> 30)) + i) & M32
  end
  g._idx = 624
end

local function twist(mt)
  for i = 0, 623 do
    local y = (mt[i] & 0x80000000) | (mt[(i + 1) % 624] & 0x7fffffff)
    local v = mt[(i + 397) % 624] ~ (y >> 1)
    if y & 1 == 1 then v = v ~ 0x9908b0df end
    mt[i] = v
  end
end

-- One raw 32-bit draw (CPUGeneratorImpl::random).
function Generator:random()
  if self._idx >= 624 then
    twist(self._mt)
    self._idx = 0
  end
  local y = self._mt[self._idx]
  self._idx = self._idx + 1
  y = y ~ (y >> 11)
  y = y ~ ((y << 7) & 0x9d2c5680)
  y = y ~ ((y << 15) & 0xefc60000)
  return (y ~ (y >> 18)) & M32
end

-- Two draws, the first as the high half (CPUGeneratorImpl::random64), as an
-- unsigned value in a Lua integer (negative above 2^63).
function Generator:random64()
  local hi = self:random()
  return (hi << 32) | self:random()
end

function Generator:manual_seed(seed)
  if math.type(seed) ~= 'integer' then
    error(('TypeError: manual_seed expected an integer seed, got %s'):format(U.kind(seed)), 0)
  end
  self._initial = seed
  seed_state(self, seed)
  return self
end
function Generator:initial_seed() return self._initial end
function Generator:seed()
  local s = (os.time() * 1000003 + math.floor(os.clock() * 1e6)) & 0x7fffffffffffffff
  self:manual_seed(s)
  return s
end
Generator.__tostring = function() return '<torch._C.Generator object>' end

function torch.Generator(...)
  local device = U.parse('Generator', {'device'}, nil, ...).device
  if device ~= nil and tostring(device) ~= 'cpu' then
    error('NotImplementedError: gpulab: torch.Generator supports only the CPU', 0)
  end
  local g = setmetatable({_mt = {}, device = torch.device('cpu')}, Generator)
  return g:manual_seed(DEFAULT_SEED)
end
function U.is_generator(v) return getmetatable(v) == Generator end

-- PyTorch's CPU randperm: Fisher-Yates with one raw draw per step.
function U.randperm_list(n, gen)
  local r = {}
  for i = 1, n do r[i] = i - 1 end
  for i = 0, n - 2 do
    local z = gen:random() % (n - i)
    r[i + 1], r[i + z + 1] = r[i + z + 1], r[i + 1]
  end
  return r
end

-- A 64-bit seed drawn the way torch.empty((), dtype=torch.int64).random_()
-- draws it: two raw draws of `gen`, or of the default CPU generator, whose
-- float64 rand() consumes the same two draws and keeps their low 53 bits
-- (all that a seed of a new generator uses: its low 32 bits).
function U.draw_seed(gen)
  if gen ~= nil then return gen:random64() & 0x7fffffffffffffff end
  local v = torch.rand({}, {dtype = torch.float64}):item()
  return math.tointeger(v * 2.0 ^ 53)
end

-- torch.randperm(n, {generator = g, dtype =, device =}): the C++ op unless a
-- generator is given.
local c_randperm = torch.randperm
function torch.randperm(...)
  local n = select('#', ...)
  local last = n > 0 and select(n, ...) or nil
  if not (U.is_plain_table(last) and last.generator ~= nil) then return c_randperm(...) end
  local a = U.parse('randperm', {'n', 'generator', 'dtype', 'device', 'requires_grad'}, {}, ...)
  if not U.is_generator(a.generator) then
    error(('TypeError: randperm(): argument \'generator\' must be torch.Generator, not %s'):format(U.kind(a.generator)), 0)
  end
  return torch.tensor(U.randperm_list(a.n, a.generator), {dtype = a.dtype or torch.int64, device = a.device})
end
