-- Bindings: creation, printing, devices, identity, errors. Run with --virtual-gpus 2 or more.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
local ok, eq, err = T.check, T.check_eq, T.check_err

-- creation and dtype inference
eq(tostring(torch.tensor({1, 2, 3})), 'tensor([1, 2, 3])')
eq(tostring(torch.tensor({1.5, 2})), 'tensor([1.5000, 2.0000])')
eq(tostring(torch.tensor({true, false})), 'tensor([ True, False])')
eq(tostring(torch.tensor(3)), 'tensor(3)')
eq(tostring(torch.zeros{2, 3, dtype=torch.int32}), 'tensor([[0, 0, 0],\n        [0, 0, 0]], dtype=torch.int32)')
eq(tostring(torch.arange(5)), 'tensor([0, 1, 2, 3, 4])')
eq(tostring(torch.eye(2)), 'tensor([[1., 0.],\n        [0., 1.]])')
eq(tostring(torch.linspace(0, 1, 5)), 'tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])')
torch.manual_seed(0)
eq(tostring(torch.rand(3)), 'tensor([0.4963, 0.7682, 0.0885])', 'rand matches PyTorch after manual_seed(0)')

-- set_printoptions: as in PyTorch, a call without sci_mode returns it to automatic
torch.set_printoptions{sci_mode = true}
eq(tostring(torch.tensor({1.5})), 'tensor([1.5000e+00])')
torch.set_printoptions{precision = 3}
eq(tostring(torch.tensor({1.5})), 'tensor([1.500])', 'sci_mode reset by a later call')
torch.set_printoptions{profile = 'default'}
err(function() torch.set_printoptions{sci_mode = 'yes'} end, "argument 'sci_mode' must be bool")
-- threshold=math.huge, PyTorch's threshold=float('inf'): the whole tensor
torch.set_printoptions{threshold = math.huge}
eq(tostring(torch.arange(1200)):find('...', 1, true), nil, 'threshold=math.huge prints every element')
torch.set_printoptions{profile = 'default'}
eq(tostring(torch.arange(1200)):find('...', 1, true) ~= nil, true, 'the default summarizes')

-- devices
local x = torch.tensor({1, 2, 3}, {device = 'cuda'})
eq(tostring(x), "tensor([1, 2, 3], device='cuda:0')")
eq(tostring(x.device), 'cuda:0')
eq(repr(x.device), "device(type='cuda', index=0)")
ok(x.is_cuda, 'is_cuda')
local z = x:cuda(1)
eq(tostring(z.device), 'cuda:1')
ok(z:cuda(1) == z, 'no-op conversion returns the same object')
ok(x:to(x.device) == x, 'to(same device) is identity')
ok(x:cpu() ~= x, 'cpu() makes a new tensor')
eq(tostring((z * 2).device), 'cuda:1', 'ops stay on their device')
err(function() return x + torch.ones(3) end,
    'Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!')
err(function() return x + z end, 'found at least two devices, cuda:0 and cuda:1!')
eq(tostring(torch.arange(4.):where(torch.arange(4):gt(1), 9)), 'tensor([9., 9., 2., 3.])',
   'x:where(condition, other) keeps x where condition holds, as Tensor.where')
-- torch.Size slices and concatenates as Python's tuples do (d2l 7.3: (1, 1) + X.shape, Y.shape[2:])
local sz = torch.Size({2, 3, 4})
eq(tostring(sz['1:']) .. ' ' .. tostring(sz[':-1']) .. ' ' .. tostring(sz['::-1']) .. ' ' .. tostring(sz['5:']),
   'torch.Size([3, 4]) torch.Size([2, 3]) torch.Size([4, 3, 2]) torch.Size([])')
eq(tostring(torch.Size({1, 1}) + sz), 'torch.Size([1, 1, 2, 3, 4])')
eq(tostring({1, 1} + sz), 'torch.Size([1, 1, 2, 3, 4])', 'a Lua array on the left')
err(function() return sz + 1 end, 'can only concatenate tuple (not int) to torch.Size')
-- legacy type names, as PyTorch 2.15 reads them (options_from_string)
eq(tostring(torch.ones(2):type('torch.IntTensor')), 'tensor([1, 1], dtype=torch.int32)')
eq(tostring(torch.ones(2):type('torch.BFloat16Tensor')), 'tensor([1., 1.], dtype=torch.bfloat16)')
eq(tostring(torch.ones(2):type('torch.cuda.DoubleTensor')), "tensor([1., 1.], device='cuda:0', dtype=torch.float64)")
eq(tostring(torch.ones(2, {device = 'cuda:1'}):type('torch.cuda.HalfTensor')),
   "tensor([1., 1.], device='cuda:1', dtype=torch.float16)", 'a CUDA tensor keeps its device')
eq(tostring(torch.ones(2, {device = 'cuda:1'}):type('torch.LongTensor')), 'tensor([1, 1])')
eq(torch.ones(2, {device = 'cuda:1'}):type(), 'torch.cuda.FloatTensor')
err(function() return torch.ones(2):type('foo') end, "invalid type: 'foo'")
err(function() return torch.ones(2):type('torch.int32') end, "invalid type: 'torch.int32'")
err(function() return torch.ones(2):type(3) end, 'dtype must be a type, str, or dtype object')
-- Note [Shapes before devices]: TensorIterator broadcasts before it compares devices
err(function() return torch.ones(2, 3) + torch.ones(3, 4, {device = 'cuda'}) end,
    'The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1')
err(function() return torch.where(torch.ones(2, {dtype = torch.bool}), x, torch.ones(3)) end,
    'The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0')
err(function() return torch.ones(4, {device = 'cuda'}):lerp(torch.ones(3), 0.5) end,
    'The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 0')
err(function() return torch.ones(3, 4, {device = 'cuda'}):add_(torch.ones(2, 3)) end,
    'The size of tensor a (4) must match the size of tensor b (3) at non-singleton dimension 1')
eq(tostring(x + torch.tensor(1)), "tensor([2, 3, 4], device='cuda:0')", '0-d CPU tensors act as scalars')
err(function() return torch.ones(2, 3, {device = 'cuda'}):mm(torch.ones(3, 1)) end,
    'Expected all tensors to be on the same device, but got mat2 is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_mm)')
err(function() return x:cuda(7) end, 'CUDA error: invalid device ordinal')
err(function() return torch.device('gpu') end, 'Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: gpu')

-- views, indexing and assignment (0-based)
local m = torch.arange(6):view(2, 3)
eq(tostring(m[0]), 'tensor([0, 1, 2])')
eq(tostring(m[':, 1']), 'tensor([1, 4])')
eq(tostring(m['-1, 1:']), 'tensor([4, 5])')
eq(tostring(m:t()), 'tensor([[0, 3],\n        [1, 4],\n        [2, 5]])')
m[':, 0'] = 9
eq(tostring(m), 'tensor([[9, 1, 2],\n        [9, 4, 5]])')
eq(tostring(m.shape), 'torch.Size([2, 3])')
eq(m.shape[0], 2)
err(function() return m[5] end, 'index 5 is out of bounds for dimension 0 with size 2')
-- (expected values below from PyTorch)
local g = torch.arange(12):view(3, 4)
err(function() return g['0, 4'] end, 'index 4 is out of bounds for dimension 1 with size 4')
err(function() return g['..., -5'] end, 'index -5 is out of bounds for dimension 1 with size 4')
err(function() return g['::0'] end, 'ValueError: slice step cannot be zero')
err(function() return torch.tensor(5)[0] end, 'invalid index of a 0-dim tensor')
eq(tostring(g[torch.tensor({true, false, true})]), 'tensor([[ 0,  1,  2,  3],\n        [ 8,  9, 10, 11]])', '1-d mask on rows')
err(function() return g[torch.tensor({true, false})] end,
    'The shape of the mask [2] at index 0 does not match the shape of the indexed tensor [3, 4] at index 0')
eq(tostring(g[torch.tensor({{0, 1}, {2, -3}})].shape), 'torch.Size([2, 2, 4])', 'index tensor shape kept')
eq(tostring(g[torch.tensor(1)]), 'tensor([4, 5, 6, 7])', '0-d index tensor selects')
eq(tostring(g[torch.tensor({-1})]), 'tensor([[ 8,  9, 10, 11]])', 'negative index tensor')
err(function() return g[torch.tensor({-4})] end, 'index -4 is out of bounds for dimension 0 with size 3')
local gm = g:clone(); gm[torch.tensor({false, true, false})] = 0
eq(tostring(gm[1]), 'tensor([0, 0, 0, 0])', 'row mask assignment')
eq(tostring(torch.linspace(0, 1, 1)), 'tensor([0.])', 'linspace with one step is the start')
err(function() return torch.full({2}, 300, {dtype = torch.uint8}) end, 'value cannot be converted to type uint8_t without overflow')
err(function() local t = torch.zeros(2, {dtype = torch.int64}); t[0] = 0 / 0 end, 'value cannot be converted to type int64_t without overflow')
err(function() torch.zeros(2):fill_(1e40) end, 'value cannot be converted to type float without overflow')
eq(tostring(torch.full({1}, -1, {dtype = torch.uint8})), 'tensor([255], dtype=torch.uint8)', 'uint8 takes negatives that wrap')

-- torch.tensor into a narrow dtype: what PyTorch takes (values from PyTorch 2.15)
eq(tostring(torch.tensor({-255, 255}, {dtype = torch.uint8})), 'tensor([  1, 255], dtype=torch.uint8)', 'uint8 wraps negatives down to -255')
eq(tostring(torch.tensor({255.9, -0.5}, {dtype = torch.int16})), 'tensor([255,   0], dtype=torch.int16)', 'floats truncate toward zero')
eq(tostring(torch.tensor({127.9, -128.0}, {dtype = torch.int8})), 'tensor([ 127, -128], dtype=torch.int8)', 'int8 edges')
eq(tostring(torch.tensor({2, 0.5, 0}, {dtype = torch.bool})), 'tensor([ True,  True, False])', 'bool takes anything')
eq(tostring(torch.tensor({1e40}, {dtype = torch.float16})), 'tensor([inf], dtype=torch.float16)', 'float overflow is inf')
eq(torch.tensor({(1 << 62) + 1, 0.5}, {dtype = torch.int64})[0]:item(), (1 << 62) + 1, 'ints beside floats stay exact')
err(function() return torch.tensor({300}, {dtype = torch.uint8}) end, 'RuntimeError: value cannot be converted to type uint8 without overflow')

-- x[mask] = values: PyTorch's index_put_ (row k of the values to the k-th true place)
local xm = torch.arange(4); xm[torch.tensor({true, false, true, false})] = torch.tensor({10, 20})
eq(tostring(xm), 'tensor([10,  1, 20,  3])', 'mask assignment of as many values as trues')
xm = torch.arange(6):view(2, 3); xm[torch.tensor({{true, false, true}, {false, true, false}})] = torch.tensor({7, 8, 9})
eq(tostring(xm), 'tensor([[7, 1, 8],\n        [3, 9, 5]])', '2-d mask takes values in row-major order')
xm = torch.arange(6):view(2, 3); xm[torch.tensor({true, true})] = torch.tensor({{7}, {8}})
eq(tostring(xm), 'tensor([[7, 7, 7],\n        [8, 8, 8]])', 'values broadcast to [count, rest]')
xm = torch.arange(6):view(2, 3); xm[torch.tensor({false, true})] = torch.tensor({{{7, 8, 9}}})
eq(tostring(xm), 'tensor([[0, 1, 2],\n        [7, 8, 9]])', 'leading 1s of the value are dropped')
xm = torch.arange(4):float(); xm[torch.tensor({true, false, true, false})] = torch.tensor({7})
eq(tostring(xm), 'tensor([7., 1., 7., 3.])', 'a one-element value fills, whatever its dtype')
xm = torch.arange(4, {device = 'cuda:1'}); xm[torch.tensor({false, true, true, false})] = torch.tensor({5, 6}, {device = 'cuda:1'})
eq(tostring(xm), "tensor([0, 5, 6, 3], device='cuda:1')", 'mask assignment on a device')
-- index_select with a 0-d index: as a one-element vector (dim kept, size 1);
-- on a 0-d input the result stays 0-d (PyTorch 2.15)
local xs = torch.arange(6.):reshape(2, 3)
eq(tostring(xs:index_select(1, torch.tensor(0)).shape), 'torch.Size([2, 1])', '0-d index keeps the dim')
eq(tostring(torch.index_select(xs, 0, torch.tensor(1))), 'tensor([[3., 4., 5.]])', 'torch.index_select, 0-d index')
eq(tostring(torch.arange(5.):index_select(0, torch.tensor(2))), 'tensor([2.])', '0-d index on a vector')
eq(tostring(torch.tensor(5.):index_select(0, torch.tensor(0))), 'tensor(5.)', '0-d input, 0-d index')
eq(tostring(torch.tensor(5.):index_select(-1, torch.tensor({0}))), 'tensor(5.)', '0-d input, one-element index')
eq(tostring(torch.tensor(5., {requires_grad = true}):index_select(0, torch.tensor(0))),
   'tensor(5., grad_fn=<IndexSelectBackward0>)', '0-d input records IndexSelectBackward0')

-- uint8 index tensors are masks (nonzero = true), deprecated in PyTorch with a
-- UserWarning on stderr; a 0-d one is a condition. Assignment of one value
-- (a number or a one-element CPU tensor) goes to masked_fill_, which refuses uint8.
local u8m = torch.tensor({1, 0, 2}, {dtype = torch.uint8})
eq(tostring(torch.arange(3.)[u8m]), 'tensor([0., 2.])', 'uint8 mask selects the nonzero places')
eq(tostring(xs[torch.tensor({{1, 0, 1}, {0, 1, 0}}, {dtype = torch.uint8})]), 'tensor([0., 2., 4.])', '2-d uint8 mask')
eq(tostring(xs[torch.tensor({0, 1}, {dtype = torch.uint8})]), 'tensor([[3., 4., 5.]])', 'uint8 mask on rows')
eq(tostring(xs[torch.tensor(1, {dtype = torch.uint8})].shape), 'torch.Size([1, 2, 3])', '0-d uint8 true')
eq(tostring(xs[torch.tensor(0, {dtype = torch.uint8})].shape), 'torch.Size([0, 2, 3])', '0-d uint8 false')
err(function() return xs[torch.tensor({1, 0, 1}, {dtype = torch.uint8})] end,
    'IndexError: The shape of the mask [3] at index 0 does not match the shape of the indexed tensor [2, 3] at index 0')
xm = xs:clone(); xm[torch.tensor({1, 0}, {dtype = torch.uint8})] = torch.tensor({9., 8., 7.})
eq(tostring(xm), 'tensor([[9., 8., 7.],\n        [3., 4., 5.]])', 'uint8 mask assignment of a tensor')
xm = xs:clone(); xm[torch.tensor(2, {dtype = torch.uint8})] = 7
eq(tostring(xm), 'tensor([[7., 7., 7.],\n        [7., 7., 7.]])', '0-d uint8 mask assignment of a number')
err(function() xs[torch.tensor({1, 0}, {dtype = torch.uint8})] = 7 end,
    'RuntimeError: masked_fill_ only supports boolean masks, but got mask with dtype unsigned char')
err(function() xs[torch.tensor({1, 0}, {dtype = torch.uint8})] = torch.tensor({9.}) end,
    'RuntimeError: masked_fill_ only supports boolean masks, but got mask with dtype unsigned char')
err(function() xs[torch.tensor({1, 0, 1}, {dtype = torch.uint8})] = 7 end,
    'IndexError: The shape of the mask [3] at index 0 does not match the shape of the indexed tensor [2, 3] at index 0')
eq(tostring(xs), 'tensor([[0., 1., 2.],\n        [3., 4., 5.]])', 'refused uint8 assignments leave x alone')

xm = torch.zeros(2, 3); xm[':'] = torch.ones(1, 3)
eq(tostring(xm), 'tensor([[1., 1., 1.],\n        [1., 1., 1.]])', 'slice assignment broadcasts')

-- a trailing empty table is empty options
eq(tostring(torch.zeros(2, {})), 'tensor([0., 0.])')
eq(tostring(torch.ones({2}, {})), 'tensor([1., 1.])')
eq(tostring(torch.tensor({1, 2}, {})), 'tensor([1, 2])')
eq(tostring(torch.randint(0, 5, {}).shape), 'torch.Size([])', 'randint(low, high, {}) is a 0-d size')

-- add/sub with alpha follow the result dtype (values from PyTorch)
local b2 = torch.tensor({true, false})
eq(tostring(b2:add(torch.tensor({true, true}), {alpha = 2})), 'tensor([True, True])', 'bool + bool with alpha stays bool')
eq(tostring(b2:add(b2, {alpha = 0})), 'tensor([ True, False])', 'bool alpha 0 adds nothing')
eq(tostring(b2:add(1, {alpha = 2})), 'tensor([3, 2])', 'bool + int scalar is int64')
eq(tostring(torch.tensor({1, 2}):add(true, {alpha = 2})), 'tensor([3, 4])')
eq(tostring(torch.tensor({1., 2.}):add(torch.tensor({1, 1}), {alpha = 2.5})), 'tensor([3.5000, 4.5000])')

-- grad_fn names of amax/amin (PyTorch: AmaxBackward0 with or without dim; max() is MaxBackward1)
local wa = torch.ones(3, {requires_grad = true})
eq(wa:amax().grad_fn:name(), 'AmaxBackward0')
eq(wa:amin().grad_fn:name(), 'AminBackward0')
eq(wa:max().grad_fn:name(), 'MaxBackward1')

-- more PyTorch results on edge input
eq(tostring(torch.ones(2):new_tensor({1, 2}, {dtype = torch.int32})), 'tensor([1, 2], dtype=torch.int32)', 'new_tensor takes dtype')
eq(tostring(torch.ones(2, {dtype = torch.int64}):new_tensor({1.5})), 'tensor([1])', "new_tensor defaults to x's dtype")
eq(tostring(torch.zeros(0, 3):softmax(0)), 'tensor([], size=(0, 3))', 'softmax over an empty dim')
eq(tostring(torch.tensor({1, 2}):softmax(0, {dtype = torch.float64})), 'tensor([0.2689, 0.7311], dtype=torch.float64)', 'softmax dtype= casts first')
eq(tostring(torch.ones(2, 3):argmax({keepdim = true})), 'tensor([[0]])', 'argmax keepdim without dim keeps every dim')
eq(tostring(torch.zeros(2, {dtype = torch.float16}):fill_(65504.0)), 'tensor([65504., 65504.], dtype=torch.float16)', 'half max fits')
eq(tostring(torch.nn.functional.cross_entropy(torch.ones(2, 3), torch.tensor({0, 1}, {dtype = torch.uint8}))), 'tensor(1.0986)', 'uint8 targets')

-- math and promotion
eq(tostring(torch.tensor({1, 2}) / 2), 'tensor([0.5000, 1.0000])')
eq(tostring(torch.tensor({1, 2}) + 0.5), 'tensor([1.5000, 2.5000])')
eq(tostring(2 - torch.tensor({1, 2})), 'tensor([1, 0])')
eq(tostring(torch.tensor({1., 2.}):double() + torch.tensor({1, 1})), 'tensor([2., 3.], dtype=torch.float64)')
eq(tostring(torch.tensor({{1., 2.}, {3., 4.}}):sum(0)), 'tensor([4., 6.])')
eq(torch.tensor({3., 4.}):norm():item(), 5.0)
-- div's rounding_mode (values from PyTorch); no binary op ignores an extra argument
eq(tostring(torch.tensor({7, -7, 6, -6}):div(torch.tensor({2, 2, -4, -4}), {rounding_mode = 'trunc'})), 'tensor([ 3, -3, -1,  1])')
eq(tostring(torch.tensor({7, -7}):div(2, {rounding_mode = 'floor'})), 'tensor([ 3, -4])')
eq(tostring(torch.tensor({7., -6.5}):div(2, {rounding_mode = 'trunc'})), 'tensor([ 3., -3.])')
eq(tostring(torch.div(5, torch.tensor({2, -2}), {rounding_mode = 'trunc'})), 'tensor([ 2, -2])')
eq(tostring(torch.tensor({7, -7}):div_(2, {rounding_mode = 'trunc'})), 'tensor([ 3, -3])')
err(function() return torch.tensor({1}):div(2, {rounding_mode = 'round'}) end,
    "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'")
err(function() return torch.tensor({1}):mul(2, {foo = 1}) end, "mul() got an unexpected keyword argument 'foo'")
err(function() return torch.ones(2, 3) + torch.ones(4) end,
    'The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1')
err(function() return torch.ones(2, 3):mm(torch.ones(4, 1)) end, 'mat1 and mat2 shapes cannot be multiplied (2x3 and 4x1)')

-- bool tensors and empty reductions: PyTorch's refusals and texts
local bt = torch.tensor({true, false})
err(function() return bt - bt end, 'NotImplementedError: Subtraction, the `-` operator, with two bool tensors is not supported.')
err(function() return 1 - bt end, 'NotImplementedError: Subtraction, the `-` operator, with a bool tensor is not supported.')
err(function() return torch.ones(2):sub_(bt) end, 'with a bool tensor is not supported')
err(function() return bt:abs() end, [["abs_cpu" not implemented for 'Bool']])
err(function() return bt:relu() end, 'Boolean inputs not supported for relu')
eq(tostring(bt:square()), 'tensor([1, 0])', 'square of bool is int64')
eq(tostring(bt + bt), 'tensor([ True, False])')
err(function() return torch.tensor({1, 2}):mean() end, 'NotImplementedError: mean(): could not infer output dtype.')
err(function() return torch.zeros(0):max() end, "RuntimeError: max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.")
err(function() return torch.zeros(0):argmax() end, 'IndexError: argmax(): Expected reduction dim to be specified for input.numel() == 0.')
err(function() return torch.zeros(0, 3):max(0) end, 'IndexError: max(): Expected reduction dim 0 to have non-zero size.')

-- autograd
local w = torch.tensor({1., 2., 3.}, {requires_grad = true})
local loss = (w * w):sum()
eq(tostring(loss), 'tensor(14., grad_fn=<SumBackward0>)')
loss:backward()
eq(tostring(w.grad), 'tensor([2., 4., 6.])')

-- memory accounting on virtual devices
collectgarbage()
local before = torch.cuda.memory_allocated(1)
do local big = torch.zeros(1000, {device = 'cuda:1'}) ; ok(torch.cuda.memory_allocated(1) >= before + 4000, 'allocation counted') end
collectgarbage(); collectgarbage()
eq(torch.cuda.memory_allocated(1), before, 'memory back to start after collectgarbage()')
err(function() return torch.empty(1 << 40, {device = 'cuda:0', dtype = torch.uint8}) end, 'CUDA out of memory. Tried to allocate 1024.00 GiB')
eq(tostring(x), "tensor([1, 2, 3], device='cuda:0')", 'earlier tensors intact after OOM')

-- torch.as_tensor as PyTorch 2.15: the tensor itself when nothing changes
T.test('as_tensor: no copy when dtype and device already match', function()
  local x = torch.ones(2)
  T.truthy(rawequal(torch.as_tensor(x), x), 'no options: x itself')
  T.truthy(rawequal(torch.as_tensor(x, {dtype = torch.float32}), x), 'same dtype: x itself')
  T.truthy(rawequal(torch.as_tensor(x, {device = 'cpu'}), x), 'same device: x itself')
  T.eq(tostring(torch.as_tensor(x, {dtype = torch.float64})), 'tensor([1., 1.], dtype=torch.float64)')
  T.eq(tostring(torch.as_tensor({1, 2})), 'tensor([1, 2])')
end)

T.finish()
