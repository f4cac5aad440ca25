-- Saved tensors changed in place before backward (Note [Version counter]):
-- the cases of tests/pytorch/gen_version_counter.py give PyTorch's error, or
-- PyTorch's gradient where it saved nothing that changed; then the same on
-- every device, and the counts of the ops a learner calls.
-- Run: gpulab --virtual-gpus 4 tests/lua/test_version_counter.lua
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
local dir = arg[0]:match('^(.*)[/\\]') or '.'
local F = nn.functional

local function run(chunk, env)
  env = setmetatable(env or {}, {__index = _G})
  env.F = F
  local ok, err = pcall(assert(load(chunk, '=case', 't', env)))
  torch.autograd.set_detect_anomaly(false)
  if not ok then return err end
  return env.result or 'ok'
end

T.test('a backward through a changed saved tensor fails as in PyTorch, and only then', function()
  local bad = {}
  for _, c in ipairs(dofile(dir .. '/data/version_counter_expected.lua')) do
    local got = run(c[2])
    if got ~= c[3] then bad[#bad + 1] = ('%s\n  want %s\n  got  %s'):format(c[1], c[3], got) end
  end
  T.eq(table.concat(bad, '\n'), '')
end)

T.test('the check holds on every device, with its type name', function()
  for i = 0, torch.cuda.device_count() - 1 do
    local dev = 'cuda:' .. i
    local got = run("local w = torch.ones(3, {requires_grad=true, device=dev}); local x = torch.ones(3, {device=dev})\n"
                    .. "local y = (w * x):sum(); x:add_(1); y:backward()", {dev = dev})
    T.eq(got, 'RuntimeError: one of the variables needed for gradient computation has been modified by an inplace '
         .. 'operation: [torch.cuda.FloatTensor [3]] is at version 1; expected version 0 instead. Hint: enable '
         .. 'anomaly detection to find the operation that failed to compute its gradient, with '
         .. 'torch.autograd.set_detect_anomaly(True, check_nan=False).', dev)
  end
end)

T.test('every in-place method counts one write, and new tensors start at 0', function()
  local args = {
    add_ = {1}, sub_ = {1}, mul_ = {2}, div_ = {2}, pow_ = {2}, clamp_ = {0, 1}, fill_ = {2}, zero_ = {},
    copy_ = {torch.ones(3)}, exp_ = {}, relu_ = {}, sigmoid_ = {}, neg_ = {}, uniform_ = {}, normal_ = {},
    bernoulli_ = {0.5}, lerp_ = {torch.ones(3), 0.5}, addcmul_ = {torch.ones(3), torch.ones(3)},
    index_add_ = {0, torch.tensor({0}), torch.ones(1)}, scatter_ = {0, torch.tensor({0}), torch.ones(1)},
    index_put_ = {{torch.tensor({0})}, torch.tensor(5.)}, round_ = {}, gt_ = {0}, atan2_ = {torch.ones(3)},
  }
  for k, a in pairs(args) do
    local x = torch.full({3}, 0.5)
    x[k](x, table.unpack(a))
    T.eq(x._version, 1, k)
  end
  local x = torch.ones(4)
  x[{{0, 1}}] = 2
  x[x:gt(1)] = 3
  T.eq(x._version, 2, 'index assignments')
  for name, t in pairs({ones = torch.ones(2), randn = torch.randn(2), cat = torch.cat({x, x}), clone = x:clone(),
                        sum = x + x, arange = torch.arange(3), dropout = F.dropout(x, 0.5)}) do
    T.eq(t._version, 0, name)
  end
end)

T.test('a refused in-place op counts nothing: the backward after it still runs', function()
  local x = torch.ones(3, {requires_grad = true})
  local y = x * 2
  local z = y * y
  local v = y:view(3)
  T.truthy(not pcall(y.add_, y, 1), 'y has a view: gpulab refuses the in-place op (Note [In-place autograd])')
  T.truthy(not pcall(x.add_, x, 1), 'a leaf that requires grad')
  T.eq(y._version, 0)
  T.eq(x._version, 0)
  z:sum():backward()
  T.eq(tostring(x.grad), 'tensor([8., 8., 8.])')
end)

T.test('an in-place op on a value a node saved runs, and that node refuses its backward', function()
  -- PyTorch's order: the write is allowed, the backward that needs the old value fails
  local x = torch.ones(3, {requires_grad = true})
  local y = x * 2
  local z = y:exp()  -- keeps its output, not y
  local w = y * y    -- keeps y
  local alias = y:detach()
  y:add_(1)
  T.eq(tostring(alias), 'tensor([3., 3., 3.])', 'written in place: aliases see it')
  T.eq(y.grad_fn:name(), 'AddBackward0')
  z:sum():backward({retain_graph = true})
  T.eq(tostring(x.grad), 'tensor([14.7781, 14.7781, 14.7781])')
  T.raises(function() w:sum():backward() end, 'which is output 0 of Add, is at version 1; expected version 0', true)
  x.grad = nil
  y:sum():backward()
  T.eq(tostring(x.grad), 'tensor([2., 2., 2.])')
end)

T.test('training as a learner writes it runs without a false alarm', function()
  torch.manual_seed(0)
  local net = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(true), nn.Flatten(), nn.LazyLinear(3))
  local opt = torch.optim.Adam(net:parameters(), {lr = 0.01})
  local X, y = torch.randn(4, 1, 6, 6), torch.tensor({0, 1, 2, 1})
  for _ = 1, 3 do
    opt:zero_grad()
    local loss = F.cross_entropy(net(X), y)
    loss:backward()
    opt:step()
    X:add_(0.1)  -- after backward: nothing saved is read again
  end
  T.truthy(net[1].weight.grad ~= nil, 'trained')
end)

T.test("anomaly mode's warning names the node and where its forward ran, in the REPL", function()
  local out = dofile(dir .. '/repl_driver.lua')({
    'torch.autograd.set_detect_anomaly(true)',
    'w = torch.ones(3, {requires_grad=true}); x = torch.tensor({1., 2., 3.})',
    'y = (w * x):sum()',
    'x:add_(1); y:backward()',
    'torch.autograd.set_detect_anomaly(false); z = torch.zeros(1, {requires_grad=true}); q = z / z',
    'torch.autograd.detect_anomaly(function() q:backward() end)',
  })
  T.eq(out[4], 'UserWarning: Error detected in MulBackward0. Traceback of forward call that caused the error:\n'
       .. '\tIn[6]:1: in main chunk\n'  -- the driver's own cells are counted too
       .. 'RuntimeError: one of the variables needed for gradient computation has been modified by an inplace '
       .. 'operation: [torch.FloatTensor [3]] is at version 1; expected version 0 instead. Hint: the backtrace further '
       .. 'above shows the operation that failed to compute its gradient. The variable in question was changed in '
       .. 'there or anywhere later. Good luck!\n'
       .. 'hint: the backward reads a value its forward saved, and an in-place op (x:add_(), x[i] = v, an optimizer '
       .. 'step) has changed it since: change a copy (x = x + 1), or call backward first')
  -- a node recorded before the mode was on has no forward to show
  T.eq(out[6], 'UserWarning: Anomaly Detection has been enabled. This mode will increase the runtime and should only '
       .. 'be enabled for debugging.\n'
       .. 'UserWarning: Error detected in DivBackward0. No forward pass information available. Enable detect anomaly '
       .. 'during forward pass for more information.\n'
       .. "RuntimeError: Function 'DivBackward0' returned nan values in its 1th output.")
end)

T.finish()
