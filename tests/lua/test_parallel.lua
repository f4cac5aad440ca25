-- nn.DataParallel on virtual devices: scatter sizes as in the PyTorch tutorial,
-- gather, gradients into the original parameters, same training as one device.
-- Run: gpulab --virtual-gpus 4 tests/lua/test_parallel.lua
-- The expected 'In Model' sizes are the tutorial's printed output for 2 GPUs
-- (batch 30 -> 15 + 15, last batch 10 -> 5 + 5) and for 16 over 4 GPUs.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
local data = torch.utils.data

if torch.cuda.device_count() < 4 then
  print('skipped: needs 4 CUDA devices; run with --virtual-gpus 4')
  T.finish()
  return
end

local log = {}
local Model = nn.Module:extend('Model')
function Model:__init(input_size, output_size)
  Model.super.__init(self)
  self.fc = nn.Linear(input_size, output_size)
end
function Model:forward(input)
  local output = self.fc(input)
  log[#log + 1] = ('In Model: input size %s output size %s'):format(tostring(input:size()), tostring(output:size()))
  return output
end

local function take_log()
  local s = table.concat(log, '\n')
  log = {}
  return s
end
local function rep(line, n)
  local t = {}
  for i = 1, n do t[i] = line end
  return table.concat(t, '\n')
end

T.test('the tutorial on 2 devices: 15 + 15, last batch 5 + 5', function()
  local RandomDataset = data.Dataset:extend('RandomDataset')
  function RandomDataset:__init(size, length) self.len = length; self.data = torch.randn(length, size) end
  function RandomDataset:__getitem(i) return self.data[i] end
  function RandomDataset:__len() return self.len end
  local loader = data.DataLoader{dataset = RandomDataset(5, 100), batch_size = 30, shuffle = true}
  local model = nn.DataParallel(Model(5, 2), {device_ids = {0, 1}})
  T.eq(model:to(torch.device('cuda:0')), model)
  local outside = {}
  for batch in loader do
    local input = batch:to('cuda:0')
    local output = model(input)
    outside[#outside + 1] = tostring(input:size()) .. ' ' .. tostring(output:size())
  end
  local l15 = 'In Model: input size torch.Size([15, 5]) output size torch.Size([15, 2])'
  local l5 = 'In Model: input size torch.Size([5, 5]) output size torch.Size([5, 2])'
  T.eq(take_log(), rep(l15, 6) .. '\n' .. rep(l5, 2))
  T.eq(table.concat(outside, ';'), 'torch.Size([30, 5]) torch.Size([30, 2]);torch.Size([30, 5]) torch.Size([30, 2]);'
    .. 'torch.Size([30, 5]) torch.Size([30, 2]);torch.Size([10, 5]) torch.Size([10, 2])')
end)

T.test('16 over 4 devices (default device_ids) -> 4 each; small batches use fewer', function()
  local model = nn.DataParallel(Model(5, 2):cuda())
  local out = model(torch.randn(16, 5))
  T.eq(take_log(), rep('In Model: input size torch.Size([4, 5]) output size torch.Size([4, 2])', 4))
  T.eq(tostring(out.shape) .. ' ' .. tostring(out.device), 'torch.Size([16, 2]) cuda:0')
  model(torch.randn(3, 5, {device = 'cuda:0'}))
  T.eq(take_log(), rep('In Model: input size torch.Size([1, 5]) output size torch.Size([1, 2])', 3))
end)

T.test('gathered output: device, grad_fn, output_device', function()
  take_log()
  local model = nn.DataParallel(Model(5, 2):cuda(), {device_ids = {0, 1}})
  local out = model(torch.randn(6, 5):cuda())
  T.eq(out.grad_fn:name(), 'GatherBackward')
  local suffix = "device='cuda:0', grad_fn=<GatherBackward>)"
  T.eq(tostring(out):sub(-#suffix), suffix)
  local m1 = nn.DataParallel(Model(5, 2):cuda(), {device_ids = {0, 1}, output_device = 1})
  T.eq(tostring(m1(torch.randn(6, 5)).device), 'cuda:1')
  take_log()
end)

T.test('parameters on the wrong device raise PyTorch\'s error', function()
  local model = nn.DataParallel(Model(5, 2))
  T.raises(function() model(torch.randn(4, 5)) end, 'RuntimeError: module must have its parameters and buffers on '
    .. 'device cuda:0 (device_ids[0]) but found one of them on device: cpu')
end)

T.test('module, state_dict keys and printing', function()
  local inner = Model(5, 2)
  local model = nn.DataParallel(inner)
  T.eq(model.module, inner)
  T.eq(table.concat(model:state_dict():keys(), ','), 'module.fc.weight,module.fc.bias')
  T.eq(tostring(model), 'DataParallel(\n  (module): Model(\n    (fc): Linear(in_features=5, out_features=2, '
    .. 'bias=True)\n  )\n)')
  -- one device: the module runs directly on the whole batch
  local one = nn.DataParallel(Model(5, 2), {device_ids = {0}})
  T.eq(tostring(one.module.fc.weight.device), 'cuda:0', 'moved to device_ids[0]')
  T.eq(tostring(one(torch.randn(8, 5)).device), 'cuda:0')
  T.eq(take_log(), 'In Model: input size torch.Size([8, 5]) output size torch.Size([8, 2])')
end)

-- A two-layer net, so gradients pass through a hidden layer on each replica.
local Net = nn.Module:extend('Net')
function Net:__init()
  nn.Module.__init(self)
  self.body = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 2))
end
function Net:forward(x) return self.body(x) end

T.test('gradients reach the original parameters', function()
  torch.manual_seed(1)
  local X, Y = torch.randn(12, 5, {device = 'cuda:0'}), torch.randn(12, 2, {device = 'cuda:0'})
  local ref, net = Net():cuda(0), Net():cuda(0)
  net:load_state_dict(ref:state_dict())
  local dp = nn.DataParallel(net, {device_ids = {0, 1, 2}})
  nn.MSELoss()(ref(X), Y):backward()
  nn.MSELoss()(dp(X), Y):backward()
  local rp = ref:parameters()
  for i, p in ipairs(net:parameters()) do
    T.truthy(p.grad ~= nil, 'grad of parameter ' .. i)
    T.eq(tostring(p.grad.device), 'cuda:0')
    T.truthy((p.grad - rp[i].grad):abs():max():item() < 1e-5, 'grad matches single-device grad ' .. i)
  end
end)

T.test('training through DataParallel gives the same losses', function()
  torch.manual_seed(2)
  local X, Y = torch.randn(64, 5), torch.randn(64, 2)
  local ref, net = Net(), Net()
  net:load_state_dict(ref:state_dict())
  ref:to('cuda:0'); net:to('cuda:0')
  X, Y = X:cuda(0), Y:cuda(0)
  local dp = nn.DataParallel(net, {device_ids = {0, 1}})
  local opt_ref = torch.optim.SGD(ref:parameters(), {lr = 0.1, momentum = 0.9})
  local opt_dp = torch.optim.SGD(dp:parameters(), {lr = 0.1, momentum = 0.9})
  local loss_fn = nn.MSELoss()
  local first, last
  for step = 1, 30 do
    opt_ref:zero_grad(); opt_dp:zero_grad()
    local l1 = loss_fn(ref(X), Y)
    local l2 = loss_fn(dp(X), Y)
    l1:backward(); l2:backward()
    opt_ref:step(); opt_dp:step()
    T.near(l2:item(), l1:item(), 1e-4, 'loss at step ' .. step)
    first = first or l1:item()
    last = l1:item()
  end
  T.truthy(last < first, 'the loss went down')
end)

-- The tutorial's own setting: exactly two devices and no device_ids, in a
-- fresh gpulab with --virtual-gpus 2 (this script runs with 4).
T.test('on exactly 2 devices, default device_ids split 30 into 15 + 15 and 10 into 5 + 5', function()
  local i = 0
  while arg[i - 1] do i = i - 1 end
  local script = os.tmpname()
  local f = assert(io.open(script, 'w'))
  f:write([[
    local M = nn.Module:extend('M')
    function M:__init() nn.Module.__init(self); self.fc = nn.Linear(5, 2) end
    function M:forward(x)
      local y = self.fc(x)
      print('In Model: input size', x:size(), 'output size', y:size(), x.device)
      return y
    end
    local model = nn.DataParallel(M()):to('cuda')
    print(torch.cuda.device_count(), #model.device_ids)
    for _, n in ipairs({30, 10}) do
      local out = model(torch.randn(n, 5, {device = 'cuda'}))
      print('Outside: input size', n, 'output_size', out:size(), out.device, out.grad_fn)
    end
  ]])
  f:close()
  local p = assert(io.popen(('%q --virtual-gpus 2 %q 2>&1'):format(arg[i], script)))
  local out = p:read('a')
  p:close()
  os.remove(script)
  out = out:gsub(' object at 0x%x+', '')
  T.eq(out, table.concat({
    '2\t2',
    'In Model: input size\ttorch.Size([15, 5])\toutput size\ttorch.Size([15, 2])\tcuda:0',
    'In Model: input size\ttorch.Size([15, 5])\toutput size\ttorch.Size([15, 2])\tcuda:1',
    'Outside: input size\t30\toutput_size\ttorch.Size([30, 2])\tcuda:0\t<GatherBackward>',
    'In Model: input size\ttorch.Size([5, 5])\toutput size\ttorch.Size([5, 2])\tcuda:0',
    'In Model: input size\ttorch.Size([5, 5])\toutput size\ttorch.Size([5, 2])\tcuda:1',
    'Outside: input size\t10\toutput_size\ttorch.Size([10, 2])\tcuda:0\t<GatherBackward>', ''}, '\n'))
end)

T.test('DataParallel: dim=1 scatter, table outputs, eval under no_grad', function()
  local Two = nn.Module:extend('Two')
  function Two:__init() nn.Module.__init(self); self.fc = nn.Linear(4, 3) end
  function Two:forward(x) local y = self.fc(x:t()):t(); return {y, y:sum(0, {keepdim = true})} end
  local dp = nn.DataParallel(Two():cuda(), {device_ids = {0, 1, 2}, dim = 1})
  local out = dp(torch.randn(4, 9))
  T.eq(tostring(out[1].shape) .. ' ' .. tostring(out[2].shape), 'torch.Size([3, 9]) torch.Size([1, 9])')
  T.eq(out[1].grad_fn:name(), 'GatherBackward')
  dp:eval()
  T.eq(dp.module.training, false)
  T.eq(torch.no_grad(function() return dp(torch.randn(4, 6))[1].grad_fn end), nil)
end)

T.finish()
