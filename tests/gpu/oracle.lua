-- The gpulab side of tests/gpu/oracle.py: the same cases in the same order,
-- printed the same way, so that on a real GPU the two outputs are equal to
-- the character (tests/gpu/oracle.sh compares them).
local cases = {}
local function case(name, fn) cases[#cases + 1] = {name, fn} end

-- An error prints as its first line: 'TypeName: message' (hints follow on
-- later lines, and PyTorch has none).
local function err(f)
  local ok, e = pcall(f)
  if ok then print('no error') else print((tostring(e):match('^[^\n]*'))) end
end

-- print(a, b, ...) as Python prints: values apart by one space, booleans True/False.
local function pr(...)
  local parts = {}
  for i = 1, select('#', ...) do
    local v = select(i, ...)
    parts[i] = type(v) == 'boolean' and (v and 'True' or 'False') or v == nil and 'None' or tostring(v)
  end
  print(table.concat(parts, ' '))
end

-- a (values, indices) pair, one per line as oracle.py's pair() prints it
local function pair(a, b)
  print(a)
  print(b)
end

local DTYPES = {'float32', 'float64', 'float16', 'bfloat16', 'int8', 'uint8', 'int16', 'int32', 'int64', 'bool'}

case('print_dtypes', function()
  for _, name in ipairs(DTYPES) do
    print(torch.tensor({{1.5, -2.25, 0.0}, {3.0, 100.125, -7.0}}):to(torch[name]):cuda())
  end
end)

case('print_shapes', function()
  print(torch.tensor(3.5, {device = 'cuda'}))
  print(torch.zeros(0, {device = 'cuda'}))
  print(torch.zeros(2, 0, {device = 'cuda'}))
  print(torch.arange(2000, {device = 'cuda', dtype = torch.float32}))
  print(torch.ones(2, 3, {requires_grad = true, device = 'cuda'}) * 2)
  print(torch.tensor({1e-5, 1e5}, {device = 'cuda'}))
  print(torch.tensor({0 / 0, math.huge, -1.0}, {device = 'cuda'}))
end)

case('devices', function()
  pr(torch.cuda.is_available(), torch.cuda.device_count(), torch.cuda.current_device())
  print(torch.cuda.get_device_name(0))
  print(torch.cuda.get_device_properties(0))
  print(torch.cuda.get_device_capability(0))
  local x = torch.ones(2, {device = 'cuda'})
  pr(x.device, repr(x.device), x.is_cuda, x:get_device())
end)

case('mixed_device_errors', function()
  local a = torch.ones(2, 2, {device = 'cuda'})
  local b = torch.ones(2, 2)
  err(function() return a + b end)
  err(function() return b * a end)
  err(function() return torch.mm(a, b) end)
  err(function() return torch.mm(b, a) end)
  err(function() return a:matmul(b) end)
  err(function() return torch.cat({a, b}) end)
  err(function() return torch.cat({b, a}) end)
  err(function() return torch.index_select(b, 0, torch.tensor({0}, {device = 'cuda'})) end)
  err(function() return torch.index_select(a, 0, torch.tensor({0})) end)
  err(function() return torch.where(a:gt(0), a, b) end)
  local lin = nn.Linear(2, 3):cuda()
  err(function() return lin(b) end)
  local lin2 = nn.Linear(2, 3)
  err(function() return lin2(a) end)
end)

case('shape_and_device_errors', function()
  -- Both wrong at once: which error does each op report first?
  local a = torch.ones(3, 4, {device = 'cuda'})
  local b = torch.ones(2, 3)
  err(function() return a + b end)
  err(function() return b * a end)
  err(function() return a:add_(b) end)
  err(function() return torch.where(torch.ones(2, {dtype = torch.bool, device = 'cuda'}), a, b) end)
  err(function() return a:lerp(b, 0.5) end)
  err(function() return torch.mm(a, b) end)
  err(function() return torch.cat({a, b}) end)
end)

case('out_of_memory', function()
  err(function() return torch.empty(2 ^ 45, {dtype = torch.uint8, device = 'cuda'}) end)
end)

case('memory_counters', function()
  torch.cuda.empty_cache()
  pr(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
  local x = torch.empty(1000, {device = 'cuda'})
  pr(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
  local y = torch.empty(1 << 20, {device = 'cuda'})
  pr(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
  local z = torch.empty(5 << 20, {device = 'cuda'})
  pr(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
  x, y, z = nil, nil, nil
  collectgarbage()
  pr(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
  torch.cuda.empty_cache()
  pr(torch.cuda.memory_allocated(), torch.cuda.memory_reserved())
  print(torch.cuda.max_memory_allocated())
end)

case('random_numbers', function()
  torch.cuda.manual_seed(0)
  print(torch.randn(8, {device = 'cuda'}))
  print(torch.rand(5, {device = 'cuda'}))
  print(torch.randint(0, 10, {7}, {device = 'cuda'}))
  print(torch.randn(3, {device = 'cuda'}))
  print(torch.randn(2, 3, {device = 'cuda', dtype = torch.float64}))
  print(torch.empty(6, {device = 'cuda'}):normal_(2, 3))
  print(torch.empty(6, {device = 'cuda'}):uniform_(-1, 1))
  torch.manual_seed(0)
  print(torch.randn(4, {device = 'cuda'}))
  print(torch.randn(4))
end)

case('random_samplers', function()
  torch.cuda.manual_seed(1)
  print(torch.randperm(10, {device = 'cuda'}))
  print(torch.bernoulli(torch.full({8}, 0.5, {device = 'cuda'})))
  print(nn.functional.dropout(torch.ones(8, {device = 'cuda'}), 0.5))
end)

case('multinomial', function()
  print(torch.multinomial(torch.tensor({0.1, 0.2, 0.7}, {device = 'cuda'}), 4, {replacement = true}))
end)

case('module_on_gpu', function()
  torch.manual_seed(0)
  local lin = nn.Linear(3, 2):cuda()
  print(lin.weight)
  print(lin(torch.ones(1, 3, {device = 'cuda'})))
  print(lin:parameters()[1].device)
end)

case('ties', function()
  local a = torch.tensor({{1., 5., 2., 5.}, {4., 0., 3., 0.}, {2., 2., 7., 1.}}, {device = 'cuda'})
  pair(torch.topk(a, 2))
  local v = torch.tensor({3., 1., 2., 1., 3., 0 / 0, 2., 1.}, {device = 'cuda'})
  pair(v:topk(2, {largest = false}))
  pair(torch.sort(torch.tensor({2, 1, 2, 1, 2}, {device = 'cuda'})))
end)

case('modes_and_kernel_names', function()
  local v = torch.tensor({3., 1., 2., 1., 3., 0 / 0, 2., 1.}, {device = 'cuda'})
  pair(torch.mode(v))
  pair(torch.mode(v, 0))
  pair(torch.topk(torch.arange(70, {device = 'cuda'}):remainder(7), 9, {sorted = false}))
  local b = torch.tensor({true, false}, {device = 'cuda'})
  err(function() return torch.addcmul(b, b, b) end)
end)

case('pooling', function()
  local x = torch.arange(2 * 5 * 6, {dtype = torch.float32, device = 'cuda'}):reshape(1, 2, 5, 6):sin()
  local F = nn.functional
  print(F.avg_pool2d(x, 2, {ceil_mode = true}))
  print(F.avg_pool2d(x, 3, {stride = 2, padding = 1, ceil_mode = true}))
  print(F.avg_pool2d(x, 3, {stride = 2, padding = 1, ceil_mode = true, divisor_override = 2}))
  print(F.max_pool2d(x, 2, {stride = 2, dilation = 2, ceil_mode = true}))
end)

case('bernoulli_dropout', function()
  torch.cuda.manual_seed(2)
  print(torch.bernoulli(torch.full({10}, 0.5, {device = 'cuda'})))
  print(torch.empty(9, {device = 'cuda'}):bernoulli_(0.3))
  print(nn.functional.dropout(torch.ones(12, {device = 'cuda'}), 0.25))
  print(nn.functional.dropout(torch.ones(3, 5, {device = 'cuda'}), 0.5))
  print(torch.randint(0, 1 << 30, {4}, {device = 'cuda'}))
  print(torch.randn(3, {device = 'cuda', dtype = torch.float16}))
  print(torch.rand(3, {device = 'cuda', dtype = torch.bfloat16}))
  print(torch.randn(1000, {device = 'cuda'}):narrow(0, 997, 3))
end)

case('batch_norm', function()
  local x = torch.arange(2 * 3 * 4 * 4, {dtype = torch.float32, device = 'cuda'}):reshape(2, 3, 4, 4):sin()
  local m = nn.BatchNorm2d(3):cuda()
  local xg = x:clone():requires_grad_()
  local y = m(xg)
  print(y)
  y:backward(x:cos())
  print(xg.grad:select(0, 0):select(0, 1))
  pr(m.weight.grad, m.bias.grad)
  pr(m.running_mean, m.running_var)
  m:eval()
  torch.no_grad(function() print(m(x):select(0, 1):select(0, 2)) end)
  print(m(xg).grad_fn:name())
  local m1 = nn.BatchNorm1d(3):cuda()
  pr(m1(x:reshape(8, 3, 4)).grad_fn:name(), m1(x:reshape(32, 3)).grad_fn:name())
end)

case('batch_norm_paths', function()  -- Note [cuDNN batch norm declines]
  local x = torch.arange(4 * 3 * 5, {dtype = torch.float32, device = 'cuda'}):reshape(4, 3, 5):cos()
  local m = nn.BatchNorm1d(3):cuda()
  m.bias:requires_grad_(false)
  local xg = x:clone():requires_grad_()
  local y = m(xg)
  y:backward(x:sin(), {retain_graph = true})
  pr(xg.grad:select(0, 1), m.weight.grad)
  y:backward(x:sin())
  pr(xg.grad:select(0, 1), m.weight.grad)
  local n = nn.BatchNorm2d(3, {track_running_stats = false}):cuda()
  pr(n(x:reshape(4, 3, 5, 1) * 3 + 1):select(0, 2):flatten(), n.running_mean)
  local big = nn.BatchNorm2d(3):cuda()
  local xb = (x:reshape(4, 3, 5, 1) + 1e4):requires_grad_()
  local yb = big(xb)
  yb:sum():backward()
  pr(yb:select(0, 0):flatten(), big.running_mean, big.running_var)
  pr(xb.grad:abs():max():item() < 1e-2)  -- d sum(y) / dx is 0: noise alone, whose digits need not repeat
end)

case('conv_type_errors', function()  -- Note [Convolution type errors]
  local x = torch.ones(2, 3, 8, 8)
  err(function() return nn.Conv2d(3, 6, 3)(x:cuda()) end)
  err(function() return nn.Conv2d(3, 6, 3):cuda()(x) end)
  err(function() return F.conv2d(x:cuda(), torch.ones(6, 3, 3, 3):cuda(), torch.ones(6)) end)
  err(function() return F.conv2d(x:cuda():bfloat16(), torch.ones(6, 3, 3, 3):cuda()) end)
  err(function() return F.conv2d(x:cuda():double(), torch.ones(6, 3, 3, 3):cuda()) end)
  err(function() return F.conv2d(x:cuda():to(torch.uint8), torch.ones(6, 3, 3, 3):cuda(), torch.ones(6):cuda()) end)
  err(function() return F.conv2d(x:narrow(0, 0, 1):narrow(1, 0, 1), torch.ones(2, 1, 3, 3):cuda()) end)
end)

for _, c in ipairs(cases) do
  print('## ' .. c[1])
  local ok, e = pcall(c[2])
  if not ok then print('case failed: ' .. tostring(e)) end
end
