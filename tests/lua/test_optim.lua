-- torch.optim: SGD and Adam against hand-computed updates and PyTorch's numbers.
-- Run: gpulab --virtual-gpus 4 tests/lua/test_optim.lua
-- The PyTorch values come from PyTorch 2.x on CPU, e.g.
--   w = torch.tensor([1., -2., 3.], requires_grad=True); opt = torch.optim.Adam([w], lr=0.1)
--   for _ in range(3): opt.zero_grad(); (w*w).sum().backward(); opt.step()
--   print(w.tolist())
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')

-- Three steps of `opt_fn({w})` on loss = sum(w^2), starting at w0.
local function run(opt_fn, w0, steps, device)
  local w = torch.tensor(w0, {device = device, requires_grad = true})
  local opt = opt_fn({w})
  for _ = 1, steps or 3 do
    opt:zero_grad();
    (w * w):sum():backward()
    opt:step()
  end
  return w, opt
end

-- The same updates in Lua doubles, one element at a time.
local function sgd_ref(w, lr, mom, steps)
  local buf
  for _ = 1, steps do
    local g = 2 * w
    if mom ~= 0 then buf = buf and (mom * buf + g) or g; g = buf end
    w = w - lr * g
  end
  return w
end
local function adam_ref(w, lr, b1, b2, eps, steps)
  local m, v = 0, 0
  for t = 1, steps do
    local g = 2 * w
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    w = w - lr / (1 - b1 ^ t) * m / (math.sqrt(v) / math.sqrt(1 - b2 ^ t) + eps)
  end
  return w
end

T.test('plain SGD step', function()
  local w = run(function(p) return torch.optim.SGD(p, {lr = 0.1}) end, {1.0, 2.0}, 1)
  T.close(w, {0.8, 1.6})
end)

T.test('SGD with momentum matches the hand-computed buffer', function()
  for _, dev in ipairs({'cpu', 'cuda:1'}) do
    local w = run(function(p) return torch.optim.SGD(p, {lr = 0.1, momentum = 0.9}) end, {1.0, -2.0, 3.0}, 4, dev)
    T.close(w, {sgd_ref(1, 0.1, 0.9, 4), sgd_ref(-2, 0.1, 0.9, 4), sgd_ref(3, 0.1, 0.9, 4)}, 1e-6, dev)
  end
end)

T.test('SGD nesterov + weight_decay matches PyTorch', function()
  local w = run(function(p)
    return torch.optim.SGD(p, {lr = 0.1, momentum = 0.9, weight_decay = 0.01, nesterov = true})
  end, {1.0, -2.0, 3.0})
  T.close(w, {-0.11165107786655426, 0.22330215573310852, -0.334953248500824}, 1e-6)
end)

T.test('Adam matches PyTorch and the formula', function()
  local w = run(function(p) return torch.optim.Adam(p, {lr = 0.1}) end, {1.0, -2.0, 3.0})
  T.close(w, {0.7015863060951233, -1.7006233930587769, 2.7003815174102783}, 1e-6)
  T.close(w, {adam_ref(1, 0.1, 0.9, 0.999, 1e-8, 3), adam_ref(-2, 0.1, 0.9, 0.999, 1e-8, 3),
              adam_ref(3, 0.1, 0.9, 0.999, 1e-8, 3)}, 1e-6)
  local w2 = run(function(p) return torch.optim.AdamW(p, {lr = 0.1}) end, {1.0, -2.0, 3.0})
  T.close(w2, {0.6989112496376038, -1.6949446201324463, 2.6917035579681396}, 1e-6)
end)

-- Values from PyTorch 2.15 (three steps on sum(w^2) from {1, -2, 3}).
T.test('RMSprop and Adagrad match PyTorch, on every device', function()
  for _, dev in ipairs({'cpu', 'cuda:0'}) do
    local function go(f) return run(f, {1.0, -2.0, 3.0}, 3, dev) end
    T.close(go(function(p) return torch.optim.RMSprop(p, {lr = 0.01}) end),
            {0.7799822688102722, -1.775349497795105, 2.77388858795166}, 1e-6)
    T.close(go(function(p) return torch.optim.RMSprop(p, {lr = 0.01, momentum = 0.9, centered = true, weight_decay = 0.1}) end),
            {0.5496501326560974, -1.5406780242919922, 2.5379090309143066}, 1e-6)
    T.close(go(function(p) return torch.optim.Adagrad(p, {lr = 0.1}) end),
            {0.7804561853408813, -1.7758214473724365, 2.7743594646453857}, 1e-6)
    T.close(go(function(p)
      return torch.optim.Adagrad(p, {lr = 0.1, lr_decay = 0.5, weight_decay = 0.1, initial_accumulator_value = 0.2})
    end), {0.8314531445503235, -1.82693612575531, 2.8257720470428467}, 1e-6)
  end
  T.raises(function() torch.optim.RMSprop({nn.Parameter(torch.ones(1))}, {alpha = -1}) end, 'ValueError: Invalid alpha value: -1')
  T.raises(function() torch.optim.Adagrad({nn.Parameter(torch.ones(1))}, {lr_decay = -1}) end, 'ValueError: Invalid lr_decay value: -1')
end)

T.test('zero_grad and parameter identity', function()
  local model = nn.Linear(3, 1)
  local w = model.weight
  local opt = torch.optim.SGD(model:parameters(), {lr = 0.5})
  model(torch.ones(2, 3)):sum():backward()
  local before = w:clone()
  opt:step()
  T.eq(model.weight, w, 'same parameter object after step')
  T.eq(w.is_leaf, true)
  T.close(w, (before - 0.5 * 2):tolist(), 1e-6)
  opt:zero_grad()
  T.eq(w.grad, nil)
  model(torch.ones(2, 3)):sum():backward()
  opt:zero_grad{set_to_none = false}
  T.eq(w.grad:abs():sum():item(), 0.0)
end)

T.test('parameter groups keep their own options', function()
  local a = torch.ones(1, {requires_grad = true})
  local b = torch.ones(1, {requires_grad = true})
  local opt = torch.optim.SGD({{params = {a}}, {params = {b}, lr = 0.5}}, {lr = 0.1})
  T.eq(opt.param_groups[2].momentum, 0)
  ;(a + b):sum():backward()
  opt:step()
  T.close(a, {0.9})
  T.close(b, {0.5})
end)

T.test('optimizers print like PyTorch', function()
  local w = torch.ones(2, {requires_grad = true})
  T.eq(tostring(torch.optim.SGD({w}, {lr = 0.1, momentum = 0.9})), table.concat({'SGD (', 'Parameter Group 0',
    '    dampening: 0', '    differentiable: False', '    foreach: None', '    fused: None', '    lr: 0.1',
    '    maximize: False', '    momentum: 0.9', '    nesterov: False', '    weight_decay: 0', ')'}, '\n'))
  T.eq(tostring(torch.optim.Adam({w})), table.concat({'Adam (', 'Parameter Group 0', '    amsgrad: False',
    '    betas: (0.9, 0.999)', '    capturable: False', '    decoupled_weight_decay: False',
    '    differentiable: False', '    eps: 1e-08', '    foreach: None', '    fused: None', '    lr: 0.001',
    '    maximize: False', '    weight_decay: 0', ')'}, '\n'))
end)

T.test('argument errors', function()
  T.raises(function() torch.optim.SGD({}, {lr = 0.1}) end, 'ValueError: optimizer got an empty parameter list')
  T.raises(function() torch.optim.SGD({torch.ones(1)}, {lr = -1}) end, 'ValueError: Invalid learning rate: -1')
  T.raises(function() torch.optim.SGD({torch.ones(1)}, {lr = 0.1, nesterov = true}) end,
    'ValueError: Nesterov momentum requires a momentum and zero dampening')
end)

-- A 5-16-3 tanh MLP, 20 full-batch steps of CrossEntropyLoss; the final loss
-- and one weight as PyTorch 2.x computes them from the same manual_seed(0):
--   X = torch.randn(32, 5); Y = torch.randint(0, 3, (32,))
--   net = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 3)); opt = make(net.parameters())
local function train_mlp(make, dev)
  torch.manual_seed(0)
  local X, Y = torch.randn(32, 5):to(dev), torch.randint(0, 3, {32})
  T.eq(table.concat(Y:tolist(), ''), '12222000110120001211000002222022', 'randint as in PyTorch')
  Y = Y:to(dev)
  local net = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 3)):to(dev)
  local opt = make(net:parameters())
  local loss
  for _ = 1, 20 do
    opt:zero_grad()
    loss = nn.CrossEntropyLoss()(net(X), Y)
    loss:backward()
    opt:step()
  end
  return loss:item(), net[0].weight[0][0]:item()
end

T.test('SGD and Adam train an MLP to PyTorch\'s numbers (cpu and cuda:1)', function()
  local cases = {
    {function(p) return torch.optim.SGD(p, {lr = 0.1}) end, {1.0096375942230225, -0.3090026378631592}},
    {function(p) return torch.optim.SGD(p, {lr = 0.1, momentum = 0.9}) end, {0.8242665529251099, -0.2513664960861206}},
    {function(p) return torch.optim.SGD(p, {lr = 0.1, momentum = 0.9, weight_decay = 0.01, dampening = 0.1}) end, {0.8432088494300842, -0.22895042598247528}},
    {function(p) return torch.optim.Adam(p, {lr = 0.01}) end, {0.8372412323951721, -0.10684248059988022}},
    {function(p) return torch.optim.Adam(p, {lr = 0.01, weight_decay = 0.1, amsgrad = true}) end, {0.963476300239563, -0.12569396197795868}},
    {function(p) return torch.optim.AdamW(p, {lr = 0.01}) end, {0.8374963402748108, -0.10642188787460327}},
  }
  for _, dev in ipairs({'cpu', 'cuda:1'}) do
    for i, c in ipairs(cases) do
      local loss, w = train_mlp(c[1], dev)
      T.near(loss, c[2][1], 2e-6, dev .. ' loss, case ' .. i)
      T.near(w, c[2][2], 2e-6, dev .. ' weight, case ' .. i)
    end
  end
end)

T.test('training a linear regression converges (cpu and cuda)', function()
  for _, dev in ipairs({'cpu', 'cuda:0'}) do
    torch.manual_seed(0)
    local X = torch.randn(200, 3)
    local y = X:matmul(torch.tensor({{2.0}, {-3.4}, {1.5}})) + 4.2
    X, y = X:to(dev), y:to(dev)
    local model = nn.Linear(3, 1):to(dev)
    local opt = torch.optim.SGD(model:parameters(), {lr = 0.1, momentum = 0.5})
    local loss_fn = nn.MSELoss()
    local loss
    for _ = 1, 200 do
      opt:zero_grad()
      loss = loss_fn(model(X), y)
      loss:backward()
      opt:step()
    end
    T.truthy(loss:item() < 1e-8, dev .. ' loss ' .. loss:item())
    T.close(model.weight, {{2.0, -3.4, 1.5}}, 1e-3, dev)
    T.close(model.bias, {4.2}, 1e-3, dev)
  end
end)

-- PyTorch 2.15's text for two groups (a blank line between them) and kaiming's mode error
T.test('optimizer printing: a blank line between parameter groups', function()
  local w, v = nn.Parameter(torch.ones(2)), nn.Parameter(torch.ones(1))
  local text = tostring(torch.optim.SGD({{params = {w}}, {params = {v}, lr = 0.5}}, {lr = 0.1}))
  T.truthy(text:find('    weight_decay: 0\n\nParameter Group 1\n', 1, true), text)
  T.raises(function() nn.init.kaiming_uniform_(torch.ones(2, 2), {mode = 'fan'}) end,
           "ValueError: Mode fan not supported, please use one of ['fan_in', 'fan_out']")
end)

T.test('the model itself, or parameters without the call: PyTorch\'s TypeErrors', function()
  local net = nn.Linear(2, 2)
  T.raises(function() torch.optim.SGD(net, {lr = 0.1}) end, "TypeError: 'Linear' object is not iterable")
  T.raises(function() torch.optim.SGD(net.parameters, {lr = 0.1}) end, "TypeError: 'method' object is not iterable")
  T.raises(function() torch.optim.SGD(nn.Sequential(nn.Linear(2, 2)), {lr = 0.1}) end,
           'TypeError: optimizer can only optimize Tensors, but one of the params is torch.nn.modules.linear.Linear')
end)

T.test('d2l 3.2/3.3 helpers, as the book defines them', function()
  torch.manual_seed(0)
  local X, y = d2l.synthetic_data(torch.tensor({2, -3.4}), 4.2, 10)
  T.eq(tostring(X.shape) .. ' ' .. tostring(y.shape), 'torch.Size([10, 2]) torch.Size([10, 1])')
  local w, b = torch.zeros(2, 1, {requires_grad = true}), torch.zeros(1, {requires_grad = true})
  local l = d2l.squared_loss(d2l.linreg(X, w, b), y)
  T.eq(tostring(l.shape), 'torch.Size([10, 1])')
  l:sum():backward()
  local g = w.grad:clone()
  d2l.sgd({w, b}, 0.03, 10)
  T.near(w[{0, 0}]:item(), (-0.03 * g[{0, 0}] / 10):item(), 1e-7, 'p -= lr * grad / batch_size')
  T.eq(w.grad:abs():sum():item(), 0.0, 'grads zeroed')
  local n = 0
  for batch in d2l.load_array({X, y}, 4) do n = n + batch[1]:size(0) end
  T.eq(n, 10)
  T.eq(math.type(d2l.accuracy(torch.tensor({{0.1, 0.9}}), torch.tensor({1}))), 'float', 'a float, as float(...)')
  T.eq(torch.distributions.multinomial.Multinomial, torch.distributions.Multinomial, 'd2l 2.6 spelling')
end)

T.finish()
