-- Random sampling and generators against PyTorch's numbers (b1_cases.lua).
local dir = (arg[0]:match('^(.*)[/\\]') or '.')
local T = dofile(dir .. '/testlib.lua')
local run_cases = loadfile(dir .. '/b1_cases.lua')
for _, p in ipairs({'gen_', 'randn_', 'uniform_', 'torch_initial', 'rng_state', 'normal', 'bernoulli', 'exponential', 'multinomial', 'dropout_', 'half_', 'split_', 'sched_'}) do run_cases(T, p) end

T.test('a CPU generator refuses a CUDA tensor, and the reverse', function()
  T.raises(function() torch.rand(2, {generator = torch.Generator(), device = 'cuda:0'}) end,
           "RuntimeError: Expected a 'cuda' device type for generator but found 'cpu'")
  T.raises(function() torch.rand(2, {generator = torch.Generator('cuda:0')}) end,
           "RuntimeError: Expected a 'cpu' device type for generator but found 'cuda'")
  T.raises(function() torch.rand(2, {generator = 3}) end,
           "TypeError: rand(): argument 'generator' must be torch.Generator, not int")
end)

T.test('generators: the same seed, the same stream; seed() and device', function()
  local g = torch.Generator()
  local s = g:seed()
  T.eq(g:initial_seed(), s)
  local a = torch.rand(4, {generator = g})
  g:manual_seed(s)
  T.eq(tostring(torch.rand(4, {generator = g})), tostring(a))
  T.eq(tostring(g.device), 'cpu')
  T.eq(tostring(torch.Generator('cuda:1').device), 'cuda:1')
  T.truthy(tostring(g):match('^<torch._C.Generator object at 0x'), tostring(g))
  local before = torch.initial_seed()
  local seeded = torch.seed()
  T.eq(torch.initial_seed(), seeded)
  T.truthy(seeded ~= before)
end)

if not T.emulated(0) then
  T.skip('a generator on a virtual device', 'cuda:0 is a real GPU (torch.Generator serves emulated devices)')
else T.test('a generator on a virtual device: its own stream there', function()
  local g = torch.Generator('cuda:0'):manual_seed(3)
  local a = torch.randn(5, {generator = g, device = 'cuda:0'})
  T.eq(a.device.type, 'cuda')
  local c = torch.Generator():manual_seed(3)
  T.eq(tostring(a:cpu()), tostring(torch.randn(5, {generator = c})))
end) end

T.test('multinomial: frequencies follow the probabilities (10^5 draws)', function()
  torch.manual_seed(0)
  local p = torch.tensor({0.1, 0.2, 0.3, 0.4})
  local s = torch.multinomial(p, 100000, true)
  for k = 0, 3 do T.near(s:eq(k):sum():item() / 100000, p[k]:item(), 0.01) end
end)

T.finish()
