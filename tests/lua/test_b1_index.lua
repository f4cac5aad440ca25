-- Index ops, advanced indexing and byte conversions against PyTorch's output
-- (b1_cases.lua), on the CPU and on a virtual CUDA device.
local dir = (arg[0]:match('^(.*)[/\\]') or '.')
local T = dofile(dir .. '/testlib.lua')
local run_cases = loadfile(dir .. '/b1_cases.lua')
for _, p in ipairs({'idx_', 'adv_', 'bytes_', 'setitem_'}) do run_cases(T, p) end

local function first_line(fn)
  local ok, err = pcall(fn)
  T.truthy(not ok, 'expected an error')
  return (tostring(err):gsub('\n.*$', ''))
end

T.test('index ops keep the same-device rule', function()
  local x = torch.zeros(3, {device = 'cuda:0'})
  T.eq(first_line(function() x:gather(0, torch.tensor({0}, {device = 'cuda:1'})) end),
       'RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1!')
  T.eq(first_line(function() x:scatter_add(0, torch.tensor({0}, {device = 'cuda:0'}), torch.ones(1)) end),
       'RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!')
  T.eq(first_line(function() return x[torch.tensor({0}, {device = 'cuda:1'})] end),
       'RuntimeError: indices should be either on cpu or on the same device as the indexed tensor (cuda:0)')
  T.eq(tostring(x[torch.tensor({1, 2})]), "tensor([0., 0.], device='cuda:0')")  -- CPU indices are fine
end)

T.test('scatter_add on a virtual device accumulates repeated indices', function()
  local n = 100000
  local idx = torch.randint(0, 10, {n}, {device = 'cuda:1'})
  local s = torch.zeros(10, {device = 'cuda:1'}):scatter_add(0, idx, torch.ones(n, {device = 'cuda:1'}))
  T.eq(s:sum():item(), n)
  T.eq(tostring(s:cpu()), tostring(torch.zeros(10):scatter_add(0, idx:cpu(), torch.ones(n))))
end)

T.test('bulk conversion: 10^6 elements through tobytes/frombuffer and tolist/tensor', function()
  local x = torch.arange(1000000, {dtype = torch.float32})
  local b = x:tobytes()
  T.eq(#b, 4000000)
  T.truthy(torch.frombuffer(b, {dtype = torch.float32}):equal(x), 'bytes round trip')
  local flat = x:tolist()
  T.eq(#flat, 1000000)
  T.truthy(torch.tensor(flat):equal(x), 'table round trip')
  local y = torch.frombuffer(torch.arange(6, {dtype = torch.int16, device = 'cuda:0'}):tobytes(), {dtype = torch.int16})
  T.eq(tostring(y), 'tensor([0, 1, 2, 3, 4, 5], dtype=torch.int16)')
end)

T.test('setitem with index tensors records autograd on non-leaves, refuses leaves', function()
  local w = torch.ones(3, {requires_grad = true})
  local y = w * 2
  y[torch.tensor({0, 2})] = 0
  y:sum():backward()
  T.eq(tostring(w.grad), 'tensor([0., 2., 0.])')
  T.raises(function() w[torch.tensor({0})] = 1 end,
           'RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.')
end)

T.test("a table inside the key is Python's list index: d2l 4.1's y_hat[[0, 1], y] (PyTorch 2.15's values)", function()
  for _, dev in ipairs({'cpu', 'cuda:0'}) do
    local y_hat = torch.tensor({{0.1, 0.3, 0.6}, {0.3, 0.2, 0.5}}, {device = dev})
    local y = torch.tensor({0, 2}, {device = dev})
    local suffix = dev == 'cpu' and '' or ", device='cuda:0'"
    T.eq(repr(y_hat[{{0, 1}, y}]), 'tensor([0.1000, 0.5000]' .. suffix .. ')')
    T.eq(repr(y_hat[{{0, 1}, {2, 0}}]), 'tensor([0.6000, 0.3000]' .. suffix .. ')')
    T.eq(repr(y_hat[{':', {0, 2}}]), 'tensor([[0.1000, 0.6000],\n        [0.3000, 0.5000]]' .. suffix .. ')')
    T.eq(repr(y_hat[{{true, false}}]), 'tensor([[0.1000, 0.3000, 0.6000]]' .. suffix .. ')')
    T.eq(repr(y_hat[{{}}]), 'tensor([], ' .. (dev == 'cpu' and '' or "device='cuda:0', ") .. 'size=(0, 3))')
    y_hat[{{0, 1}, y}] = 0
    T.eq(repr(y_hat[{{0, 1}, y}]), 'tensor([0., 0.]' .. suffix .. ')')
  end
end)

T.finish()
