-- cumsum and cumprod against PyTorch 2.15: printed results, dtype rules,
-- float32 values bit for bit (PyTorch's CPU kernel accumulates float32 in
-- double, in order; a float accumulator would differ in 8 of the cumsums and
-- 23 of the cumprods below), gradients, errors, 0-d and empty tensors, on the
-- CPU and on a CUDA device. Expected values printed by PyTorch.
-- Run: gpulab --virtual-gpus 4 tests/lua/test_scan.lua
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')

-- torch.randn(3, 11) and torch.rand(3, 11) + 0.5 with torch.manual_seed(3), as float32 values.
local X = {-0.07664429396390915, 0.35988152027130127, -0.7820168137550354, 0.07152773439884186, 0.6648393869400024, -0.28678029775619507, 1.6205507516860962, -1.596708059310913, -0.05168096348643303, -0.30597570538520813, 0.2485017478466034, -0.2225608378648758, 0.9131519198417664, 0.2043411135673523, 0.573984682559967, 0.41633129119873047, 0.26150116324424744, -0.2929125428199768, -0.3480893075466156, 0.3487463593482971, 0.037066876888275146, -0.06768558919429779, 0.4290330410003662, -0.8681192398071289, -1.196319580078125, 0.1416284739971161, 0.1295178234577179, 0.68141108751297, -0.9583004117012024, 0.06392408162355423, 0.6589139103889465, 0.8194591999053955, 0.5615938901901245}
local CS1 = {-0.07664429396390915, 0.2832372188568115, -0.4987795948982239, -0.4272518455982208, 0.23758754134178162, -0.04919276386499405, 1.5713579654693604, -0.025350071489810944, -0.07703103125095367, -0.383006751537323, -0.1345049887895584, -0.2225608378648758, 0.6905910968780518, 0.894932210445404, 1.468916893005371, 1.8852481842041016, 2.146749258041382, 1.8538367748260498, 1.5057474374771118, 1.8544938564300537, 1.891560673713684, 1.8238751888275146, 0.4290330410003662, -0.4390861988067627, -1.6354057788848877, -1.4937772750854492, -1.3642594814300537, -0.6828483939170837, -1.6411488056182861, -1.5772247314453125, -0.918310821056366, -0.09885161370038986, 0.46274226903915405}
local CS0 = {-0.07664429396390915, 0.35988152027130127, -0.7820168137550354, 0.07152773439884186, 0.6648393869400024, -0.28678029775619507, 1.6205507516860962, -1.596708059310913, -0.05168096348643303, -0.30597570538520813, 0.2485017478466034, -0.29920512437820435, 1.2730333805084229, -0.5776757001876831, 0.6455124020576477, 1.081170678138733, -0.025279134511947632, 1.3276381492614746, -1.944797396659851, 0.297065407037735, -0.268908828496933, 0.1808161586523056, 0.12982791662216187, 0.4049142003059387, -1.773995280265808, 0.7871409058570862, 1.2106884717941284, 0.6561319828033447, 0.369337797164917, -1.8808733224868774, 0.9559792876243591, 0.5505503416061401, 0.7424100637435913}
local XP = {1.4623029232025146, 1.2605791091918945, 0.7981061935424805, 0.9290640950202942, 1.4418346881866455, 1.3212183713912964, 1.1246671676635742, 0.820641815662384, 1.4160385131835938, 1.2142151594161987, 0.7773125171661377, 1.3548295497894287, 1.0356364250183105, 0.6302217245101929, 0.77838134765625, 0.6255302429199219, 0.5858750939369202, 1.0122233629226685, 0.6416847705841064, 1.2664756774902344, 1.2236120700836182, 1.1075549125671387, 1.4119830131530762, 0.7731899619102478, 1.0074560642242432, 1.3072354793548584, 1.172831416130066, 1.0605792999267578, 1.4180974960327148, 1.11395263671875, 1.3364155292510986, 0.5690987706184387, 0.5691446661949158}
local CP1 = {1.4623029232025146, 1.843348503112793, 1.4711878299713135, 1.3668278455734253, 1.970739722251892, 2.6037776470184326, 2.9283831119537354, 2.403153657913208, 3.4029581546783447, 4.131923198699951, 3.2117958068847656, 1.3548295497894287, 1.4031108617782593, 0.8842709064483643, 0.6883000135421753, 0.4305524528026581, 0.25224995613098145, 0.2553333044052124, 0.16384349763393402, 0.2075037956237793, 0.25390416383743286, 0.28121280670166016, 1.4119830131530762, 1.091731071472168, 1.0998711585998535, 1.4377905130386353, 1.6862858533859253, 1.7884399890899658, 2.536182165145874, 2.8251867294311523, 3.7756235599517822, 2.148702621459961, 1.222922682762146}
-- Gradients of a [3, 5] input with zeros (one, two and none per row) for grad G.
local GP1 = {1.0, 22.0, 0.0, 0.0, 0.0, -1.5, -1.0, 24.0, 0.0, 0.0, 50.5, 16.5, 12.0, 7.5, 4.5}
local GP0 = {2.0, 3.0, 3.0, 20.0, 8.5, 2.0, 0.0, 12.0, 0.0, 35.0, 2.0, 0.0, 0.0, 0.0, 2.5}
local GS1 = {15.0, 14.0, 12.0, 9.0, 5.0, 5.5, 5.0, 6.0, 4.0, 3.0, 5.0, 4.0, 3.0, 2.0, 1.0}
local GS0 = {2.5, 2.0, 6.0, 6.0, 9.0, 1.5, 0.0, 3.0, 2.0, 4.0, 1.0, 1.0, 1.0, 1.0, 1.0}
local A = {{2., 0., 3., 0., 5.}, {1., 2., 0., 4., 0.5}, {0.5, 1.5, 2., 3., 4.}}
local G = {{1., 2., 3., 4., 5.}, {0.5, -1., 2., 1., 3.}, {1., 1., 1., 1., 1.}}

local devices = {'cpu', 'cuda:0'}

local function exact(got, want_flat, shape, what)
  local want = torch.tensor(want_flat):view(table.unpack(shape))
  T.eq(got.dtype, torch.float32, what .. ': dtype')
  T.eq(tostring(got.shape), tostring(want.shape), what .. ': shape')
  T.truthy(got:cpu():eq(want):all():item(), what .. ': values differ from PyTorch\'s bit for bit')
end

for _, dev in ipairs(devices) do
  local on = function(t) return t:to(dev) end
  -- The CPU's printing (how a device is printed is test_print_golden's business).
  local function shows(t, want, what)
    T.eq(tostring(t.device), dev, what .. ': device')
    T.eq(tostring(t:cpu()), want, what)
  end

  T.test('cumsum/cumprod print and type as PyTorch on ' .. dev, function()
    local m = on(torch.tensor({{1, 2, 3}, {4, 5, 6}}))
    shows(m:cumsum(0), 'tensor([[1, 2, 3],\n        [5, 7, 9]])', 'cumsum(0)')
    shows(torch.cumsum(m, -1), 'tensor([[ 1,  3,  6],\n        [ 4,  9, 15]])', 'cumsum(-1)')
    shows(m:cumprod(1), 'tensor([[  1,   2,   6],\n        [  4,  20, 120]])', 'cumprod(1)')
    shows(on(torch.tensor({true, false, true})):cumsum(0), 'tensor([1, 1, 2])', 'bool cumsum gives int64')
    shows(on(torch.tensor({2, 3}, {dtype = torch.int32})):cumprod(0), 'tensor([2, 6])', 'int32 cumprod gives int64')
    shows(on(torch.tensor({100, 100, 100}, {dtype = torch.int8})):cumsum(0, {dtype = torch.int8}),
          'tensor([100, -56,  44], dtype=torch.int8)', 'dtype=int8 wraps')
    shows(on(torch.tensor({1., 2., 3.5}, {dtype = torch.float16})):cumsum(0),
          'tensor([1.0000, 3.0000, 6.5000], dtype=torch.float16)', 'float16 cumsum')
    shows(on(torch.tensor({1., 2., 3.5}, {dtype = torch.bfloat16})):cumprod(0),
          'tensor([1., 2., 7.], dtype=torch.bfloat16)', 'bfloat16 cumprod')
    shows(m:cumsum(1, {dtype = torch.float64}),
          'tensor([[ 1.,  3.,  6.],\n        [ 4.,  9., 15.]], dtype=torch.float64)', 'dtype=float64')
    shows(torch.cumsum{m, 1, dtype = torch.float64},
          'tensor([[ 1.,  3.,  6.],\n        [ 4.,  9., 15.]], dtype=torch.float64)', 'one mixed table')
    shows(on(torch.tensor(2.5)):cumprod(0), 'tensor(2.5000)', '0-d cumprod')
    shows(on(torch.tensor(2.5)):cumsum(-1), 'tensor(2.5000)', '0-d cumsum, dim -1')
    shows(on(torch.empty(0, 3)):cumsum(0), 'tensor([], size=(0, 3))', 'empty')
    shows(on(torch.empty(0, 3, {dtype = torch.int32})):cumprod(1), 'tensor([], size=(0, 3), dtype=torch.int64)', 'empty int32')
  end)

  T.test('float32 cumsum/cumprod equal PyTorch\'s bit for bit on ' .. dev, function()
    local x = on(torch.tensor(X):view(3, 11))
    exact(x:cumsum(1), CS1, {3, 11}, 'cumsum(1)')
    exact(x:cumsum(0), CS0, {3, 11}, 'cumsum(0)')
    exact(x:t():cumsum(0):t(), CS1, {3, 11}, 'cumsum of a transposed view')
    exact(on(torch.tensor(XP):view(3, 11)):cumprod(-1), CP1, {3, 11}, 'cumprod(-1)')
  end)

  T.test('cumsum/cumprod gradients as PyTorch on ' .. dev, function()
    local g = on(torch.tensor(G))
    local function grad_of(f)
      local a = on(torch.tensor(A)):requires_grad_()
      local y = f(a)
      y:backward(g:to(y.dtype))
      return a, y
    end
    local a, y = grad_of(function(a) return a:cumprod(1) end)
    T.eq(y.grad_fn:name(), 'CumprodBackward0', 'cumprod grad_fn')
    exact(a.grad, GP1, {3, 5}, 'cumprod(1) grad, zeros in rows')
    a = grad_of(function(a) return a:cumprod(0) end)
    exact(a.grad, GP0, {3, 5}, 'cumprod(0) grad')
    a, y = grad_of(function(a) return a:cumsum(1) end)
    T.eq(y.grad_fn:name(), 'CumsumBackward0', 'cumsum grad_fn')
    exact(a.grad, GS1, {3, 5}, 'cumsum(1) grad')
    a, y = grad_of(function(a) return a:cumsum(0, {dtype = torch.float64}) end)
    T.eq(y.dtype, torch.float64, 'dtype=float64 result')
    exact(a.grad, GS0, {3, 5}, 'cumsum(0, dtype=float64) grad, back in float32')
    -- 0-d and size-1 dims pass the gradient through
    local s = on(torch.tensor(3.0)):requires_grad_()
    s:cumprod(0):backward()
    T.eq(s.grad:item(), 1.0, '0-d cumprod grad')
  end)

  T.test('cumsum/cumprod errors as PyTorch on ' .. dev, function()
    local m = on(torch.ones(2, 3))
    T.raises(function() return m:cumsum(2) end, 'IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 2)')
    T.raises(function() return m:cumprod(-3) end, 'IndexError: Dimension out of range (expected to be in range of [-2, 1], but got -3)')
    T.raises(function() return on(torch.tensor(1.)):cumsum(1) end, 'IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)')
    T.raises(function() return m:cumsum() end, 'TypeError: cumsum() missing 1 required positional arguments: "dim"')
    T.raises(function() return torch.cumprod(m) end, 'TypeError: cumprod() missing 1 required positional arguments: "dim"')
    T.raises(function() return torch.cumsum(m, 0, torch.int32) end, 'TypeError: cumsum() takes 2 positional arguments but 3 were given')
    T.raises(function() return m:cumsum(0, {foo = 1}) end, "TypeError: cumsum() got an unexpected keyword argument 'foo'")
  end)
end

T.finish()
