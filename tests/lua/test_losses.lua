-- Losses and nn.functional against PyTorch's numbers: cross_entropy with
-- weight / ignore_index / label_smoothing / probability targets, mse_loss,
-- F.linear with and without bias, on the CPU and on a virtual device.
-- Run: gpulab --virtual-gpus 4 tests/lua/test_losses.lua
-- Expected values from PyTorch 2.x (CPU), e.g.
--   torch.manual_seed(0); x = torch.randn(4, 5, requires_grad=True); y = torch.randn(4, 5)
--   t = torch.tensor([0, 4, 2, 1]); print(F.cross_entropy(x, t).item())
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
local F = nn.functional

local function inputs(dev)
  torch.manual_seed(0)
  local x = torch.randn(4, 5):to(dev):requires_grad_()
  local y = torch.randn(4, 5):to(dev)
  return x, y, torch.tensor({0, 4, 2, 1}, {device = dev}),
    torch.tensor({0.5, 1.0, 2.0, 1.5, 0.25}, {device = dev})
end

T.test('cross_entropy matches PyTorch (cpu and cuda:1)', function()
  for _, dev in ipairs({'cpu', 'cuda:1'}) do
    local x, y, t, w = inputs(dev)
    T.near(F.cross_entropy(x, t):item(), 2.034420967102051, 1e-6, dev)
    T.near(F.cross_entropy(x, t, {reduction = 'sum'}):item(), 8.137683868408203, 1e-5, dev)
    T.close(F.cross_entropy(x, t, {reduction = 'none'}), {2.483379, 2.435183, 1.444743, 1.774379}, 1e-5, dev)
    T.near(F.cross_entropy(x, t, {weight = w}):item(), 1.7371602058410645, 1e-6, dev .. ' weight')
    T.near(F.cross_entropy(x, torch.tensor({0, -100, 2, 1}, {device = dev})):item(), 1.9008337259292603, 1e-6,
      dev .. ' ignore_index')
    T.near(F.cross_entropy(x, t, {label_smoothing = 0.1}):item(), 2.02565860748291, 1e-6, dev .. ' smoothing')
    T.near(F.cross_entropy(x, y:softmax(1)):item(), 1.9568958282470703, 1e-6, dev .. ' probabilities')
    local l = F.cross_entropy(x, t, {weight = w, label_smoothing = 0.1})
    l:backward()
    T.close(x.grad[1], {-0.000761, 0.001081, 0.046896, 0.006411, -0.053626}, 1e-6, dev .. ' grad')
    T.eq(tostring(x.grad.device), dev)
  end
end)

T.test('ignored samples count for nothing, and print as 0', function()
  local x = inputs('cpu')
  local t = torch.tensor({1, 3, -100, -100})
  local none = F.cross_entropy(x, t, {reduction = 'none'})
  T.truthy(tostring(none):find(' 0%.0000') and not tostring(none):find('%-0%.0000'), 'ignored losses print as 0.0000')
  T.near(F.cross_entropy(x, t):item(), (none[0]:item() + none[1]:item()) / 2, 1e-6)
  F.cross_entropy(x, t):backward()
  T.eq(x.grad[2]:abs():sum():item(), 0.0)
  T.raises(function() F.cross_entropy(x, torch.tensor({0, 7, 1, 1})) end, 'IndexError: Target 7 is out of bounds.')
  T.raises(function() F.cross_entropy(x, t, {weight = torch.ones(4)}) end,
    'RuntimeError: weight tensor should be defined either for all 5 classes or no classes but got weight tensor of '
    .. 'shape: [4]')
  T.raises(function() F.cross_entropy(x, t, {ignore = 1}) end,
    "TypeError: cross_entropy() got an unexpected keyword argument 'ignore'")
end)

T.test('CrossEntropyLoss options; its weight is a buffer', function()
  local x, _, t, w = inputs('cpu')
  local ce = nn.CrossEntropyLoss{weight = w, ignore_index = 4, label_smoothing = 0.1}
  T.eq(tostring(ce), 'CrossEntropyLoss()')
  T.eq(table.concat(ce:state_dict():keys(), ','), 'weight')
  T.near(ce(x, t):item(), F.cross_entropy(x, t, {weight = w, ignore_index = 4, label_smoothing = 0.1}):item(), 1e-7)
  ce:to('cuda:1')
  T.eq(tostring(ce.weight.device), 'cuda:1')
  T.near(ce(x:cuda(1), t:cuda(1)):item(), F.cross_entropy(x, t, {weight = w, ignore_index = 4, label_smoothing = 0.1}):item(),
    1e-6)
  T.eq(#nn.CrossEntropyLoss():state_dict(), 0)
end)

T.test('mse_loss matches PyTorch', function()
  local x, y = inputs('cpu')
  T.near(F.mse_loss(x, y):item(), 1.9942668676376343, 1e-6)
  T.near(nn.MSELoss{reduction = 'sum'}(x, y):item(), 39.885337829589844, 1e-4)
end)

T.test('F.linear with and without bias, any input rank', function()
  local x = torch.arange(6.0):view(2, 3)
  local w = torch.tensor({{1.0, 0.0, 0.0}, {0.0, 1.0, 1.0}})
  T.close(F.linear(x, w), {{0, 3}, {3, 9}})
  T.close(F.linear(x, w, torch.tensor({1.0, -1.0})), {{1, 2}, {4, 8}})
  T.close(F.linear(x:view(1, 2, 3), w, torch.tensor({1.0, -1.0})), {{{1, 2}, {4, 8}}})
  T.close(F.linear(x[1], w), {3, 9})
  local xr = x:view(1, 2, 3):requires_grad_()
  T.eq(F.linear(xr, w, torch.tensor({1.0, -1.0})).grad_fn:name(), 'UnsafeViewBackward0')
end)

T.finish()
