-- Regression tests for crashes an outside fuzzer found, on sizes: tensors past
-- the dim limit, sizes whose numel overflows, printing huge tensors, .data and
-- .grad =, out-of-range numbers, randint's int64 bounds, splits of scalars.
-- (Finalizers and metatables: test_robustness_userdata.lua; grad mode and
-- torch.save: test_robustness_grad_save.lua.)
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')

local LIMIT = 16
local function limit_error(n)
  return 'RuntimeError: gpulab supports tensors of at most 16 dimensions, but got ' .. n
end
local function ones_list(n) local t = {} for i = 1, n do t[i] = 1 end return t end

-- ---- more dims than the kernels hold ---------------------------------------
for _, n in ipairs({17, 18, 34}) do
  local sizes = ones_list(n)
  sizes[1], sizes[n] = 2, 3
  local function check(what, fn) T.test(what .. ' ' .. n .. ' dims', function() T.raises(fn, limit_error(n)) end) end
  check('view', function() return torch.zeros(6):view(sizes) end)
  check('reshape', function() return torch.zeros(6):reshape(sizes) end)
  check('expand', function() return torch.zeros(1):expand(sizes) end)
  check('empty', function() return torch.empty(sizes) end)
  check('zeros', function() return torch.zeros(sizes) end)
  check('rand', function() return torch.rand(sizes) end)
  check('new_empty', function() return torch.zeros(2):new_empty(sizes) end)
  -- these grow one dim at a time from the limit, so they stop at 17
  T.test('unsqueeze ' .. n .. ' dims', function()
    T.raises(function()
      local x = torch.zeros(ones_list(LIMIT))
      for _ = LIMIT + 1, n do x = x:unsqueeze(0) end
    end, limit_error(17))
  end)
  T.test('None index ' .. n .. ' dims', function()
    local idx = {}
    for i = 1, n - 1 do idx[i] = 'None' end
    T.raises(function() return torch.zeros(2)[idx] end, limit_error(17))
  end)
  check('nested torch.tensor', function()
    local v = 1.5
    for _ = 1, n do v = {v} end
    return torch.tensor(v)
  end)
  T.test('torch.load ' .. n .. ' dims', function()
    local shape = table.concat(ones_list(n), ',')
    local json = '{"x":{"dtype":"F32","shape":[' .. shape .. '],"data_offsets":[0,4]}}'
    local path = os.tmpname()
    local f = assert(io.open(path, 'wb'))
    f:write(string.pack('<I8', #json), json, string.pack('<f', 1.0))
    f:close()
    local ok, err = pcall(torch.load, path)
    os.remove(path)
    T.eq(ok, false, 'loaded')
    T.truthy(tostring(err):find('at most 16 dimensions', 1, true), tostring(err))
  end)
end

-- At the limit every reduction works and agrees with the same data in 1-d.
T.test('reductions at the dim limit', function()
  local sizes = ones_list(LIMIT)
  sizes[1], sizes[LIMIT] = 2, 3
  local x = torch.arange(1, 7, {dtype = torch.float32}):view(sizes)
  local flat = torch.arange(1, 7, {dtype = torch.float32})
  T.eq(x:dim(), LIMIT)
  for _, op in ipairs({'sum', 'mean', 'amax', 'amin', 'max', 'min', 'prod', 'std', 'var', 'argmax', 'argmin'}) do
    T.near(x[op](x):item(), flat[op](flat):item(), 1e-5, op)
  end
  T.eq(x:all():item(), true, 'all')
  T.eq(x:any():item(), true, 'any')
  T.close(x:sum(0):flatten(), {5, 7, 9}, 1e-6, 'sum(0)')
  T.close(x:sum(-1):flatten(), {6, 15}, 1e-6, 'sum(-1)')
  T.close(x:amax(0):flatten(), {4, 5, 6}, 1e-6, 'amax(0)')
  T.close(x:argmin(-1):flatten(), {0, 0}, 0, 'argmin(-1)')
  T.close(x:mean(0):flatten(), {2.5, 3.5, 4.5}, 1e-6, 'mean(0)')
  T.close(x:std(0):flatten(), {2.1213203, 2.1213203, 2.1213203}, 1e-5, 'std(0)')
  T.close(x:softmax(-1):flatten(), flat:view(2, 3):softmax(-1):flatten():tolist(), 1e-6, 'softmax')
  T.close(x:log_softmax(0):flatten(), flat:view(2, 3):log_softmax(0):flatten():tolist(), 1e-6, 'log_softmax')
  T.close(x:cumsum(-1):flatten(), {1, 3, 6, 4, 9, 15}, 1e-6, 'cumsum')
  local z = torch.zeros(ones_list(LIMIT))
  T.eq(z:sum(0):item(), 0.0, 'sum(0) of zeros')
end)

T.test('None index is linear and stops at the limit', function()
  local idx = {}
  for i = 1, 200000 do idx[i] = 'None' end
  local t0 = os.clock()
  T.raises(function() return torch.zeros(2)[idx] end, limit_error(17))
  T.truthy(os.clock() - t0 < 2, 'took ' .. (os.clock() - t0) .. ' s')
  local ok = {}
  for i = 1, LIMIT - 1 do ok[i] = 'None' end
  T.eq(torch.zeros(2)[ok]:dim(), LIMIT)
end)

-- Found by the long fuzz run: randint's bounds went through a double, so
-- those near 2^63 were rounded out of int64's range (undefined behaviour).
T.test('randint near the ends of int64', function()
  for _, dev in ipairs({'cpu', 'cuda:0'}) do
    local hi = math.maxinteger
    T.eq(table.concat(torch.randint(hi - 1, hi, {5}, {device = dev}):tolist(), ' '), ('%d '):rep(5, ''):format(hi - 1, hi - 1, hi - 1, hi - 1, hi - 1):sub(1, -2))
    local lo = math.mininteger
    T.eq(table.concat(torch.randint(lo, lo + 1, {3}, {device = dev}):tolist(), ' '), ('%d %d %d'):format(lo, lo, lo))
    local x = torch.randint(lo, hi, {1000}, {device = dev})
    T.truthy(x:min():item() < 0 and x:max():item() > 0, 'the whole range is drawn from')
  end
end)

-- ---- sizes past int64, huge prints, .data and .grad ------------------------
T.test('numel overflow', function()
  T.raises(function() return torch.ones(1, 1):expand(2 ^ 62, 2) end, 'RuntimeError: numel: integer multiplication overflow')
  T.raises(function() return torch.ones(1, 1):expand(1 << 62, 2) end, 'RuntimeError: numel: integer multiplication overflow')
  T.raises(function() return torch.ones(1, 1, 1):expand(1 << 31, 1 << 31, 4) end,
           'RuntimeError: numel: integer multiplication overflow')
  local big = torch.ones(1, 1):expand(1 << 31, 1 << 31)
  T.eq(big:numel(), 1 << 62)
  local x = torch.ones(2, 2)
  local ok, err = pcall(function() return x['repeat'](x, 1 << 62, 4) end)
  T.eq(ok, false)
  T.truthy(not tostring(err):find('max_size', 1, true) and tostring(err):find('^RuntimeError'), tostring(err))
  T.raises(function() return x['repeat'](x, -1, 2) end, 'RuntimeError: Trying to create tensor with negative dimension -2: [-2, 4]')
  T.close(x['repeat'](x, 2, 1), {{1, 1}, {1, 1}, {1, 1}, {1, 1}})
end)

T.test('printing a huge view reads only what it prints', function()
  local huge = torch.ones(1, 1):expand(100000, 100000)  -- 40 GB if copied
  T.eq(tostring(huge), tostring(torch.ones(100, 100)))
  local r = torch.arange(1000000):view(1000, 1000)
  T.eq(tostring(r), table.concat({
    'tensor([[     0,      1,      2,  ...,    997,    998,    999],',
    '        [  1000,   1001,   1002,  ...,   1997,   1998,   1999],',
    '        [  2000,   2001,   2002,  ...,   2997,   2998,   2999],',
    '        ...,',
    '        [997000, 997001, 997002,  ..., 997997, 997998, 997999],',
    '        [998000, 998001, 998002,  ..., 998997, 998998, 998999],',
    '        [999000, 999001, 999002,  ..., 999997, 999998, 999999]])'}, '\n'))
  T.eq(tostring(torch.arange(2000)), 'tensor([   0,    1,    2,  ..., 1997, 1998, 1999])')
  local t = torch.arange(2 * 600 * 3, {dtype = torch.float32}):view(2, 600, 3):transpose(0, 2)
  T.eq(tostring(t), tostring(t:contiguous()))
end)

T.test('.data = and .grad = check what PyTorch checks', function()
  local w = torch.zeros(3, {requires_grad = true})
  T.raises(function() w.data = torch.zeros(3, {dtype = torch.int8}) end,
           'RuntimeError: data set to a tensor that requires gradients must be floating point or complex dtype')
  T.eq(w.dtype, torch.float32)
  w.data = torch.ones(2, {dtype = torch.float64})  -- PyTorch allows another float dtype and shape
  T.eq(w.dtype, torch.float64)
  local v = torch.zeros(3)
  v.data = torch.ones(2, {dtype = torch.int8})
  T.eq(v.dtype, torch.int8)
  local p = torch.zeros(2, 3, {requires_grad = true})
  T.raises(function() p.grad = torch.zeros(2, 3, {dtype = torch.int64}) end,
           "RuntimeError: attempting to assign a gradient with dtype 'long int' to a tensor with grad_dtype 'Float'. " ..
           "The gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the " ..
           "tensor's grad_dtype attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with " ..
           'caution. Diverging the dtypes of a tensor and its gradient may break downstream systems that assume ' ..
           'they match.')
  T.raises(function() p.grad = torch.zeros(3) end,
           "RuntimeError: attempting to assign a gradient of size '[3]' to a tensor of size '[2, 3]'. " ..
           'Please ensure that the gradient and the tensor are the same size')
  T.raises(function() p.grad = torch.zeros(2, 3, {device = 'cuda:0'}) end,
           "RuntimeError: attempting to assign a gradient with device type 'cuda' to a tensor with device type 'cpu'. " ..
           'Please ensure that the gradient and the tensor are on the same device')
  local q = torch.zeros(2, {device = 'cuda:0', requires_grad = true})
  T.raises(function() q.grad = torch.zeros(2, {device = 'cuda:1'}) end,
           "RuntimeError: attempting to assign a gradient located on device with index '1' to a tensor located on " ..
           "device with index '0'. Please ensure that the gradient and the tensor are on the same device")
  T.raises(function() p.grad = p end, "RuntimeError: can't assign Variable as its own grad")
  T.raises(function() p.grad = 5 end, 'TypeError: assigned grad expected to be a Tensor or None but got grad of type int')
  p.grad = torch.ones(2, 3)
  T.close(p.grad, {{1, 1, 1}, {1, 1, 1}})
  p.grad = nil
  T.eq(p.grad, nil)
end)

-- ---- found by fuzz_lua: out-of-range floats to integers, splits of scalars ---
T.test('float -> int64 of NaN, inf, 1e30 is INT64_MIN (x86), never undefined', function()
  local x = torch.tensor({1e30, -1e30, 0 / 0, 1 / 0, -2.5}):long()
  T.eq(table.concat(x:tolist(), ','), table.concat({math.mininteger, math.mininteger, math.mininteger, math.mininteger, -2}, ','))
end)
T.test('binary op and clamp with a scalar out of int64 range', function()
  T.eq(tostring(torch.tensor({3, 4}) + (-1e30)), 'tensor([-1.0000e+30, -1.0000e+30])')
  T.eq(tostring(torch.tensor({1, 2}):clamp(nil, 1e30)), 'tensor([1., 2.])')
end)
T.test('split of a 0-d tensor, negative split sizes: errors as PyTorch', function()
  T.raises(function() return torch.tensor(1.0):split({1}) end, 'RuntimeError: split expects at least a 1-dimensional tensor')
  T.raises(function() return torch.ones(4):split({5, -1}) end,
           'RuntimeError: split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=[5, -1]')
end)

T.test('diag with a diagonal offset at the ends of int64: an error, never undefined', function()
  -- the fuzzer's fixed_diag_offset_int64_min: -k of INT64_MIN overflowed in diag_embed
  for _, k in ipairs({math.mininteger, math.maxinteger, math.mininteger + 1}) do
    T.raises(function() return torch.diag(torch.ones(2), k) end,
             ('RuntimeError: diag(): the diagonal offset %d makes a matrix too large to exist'):format(k))
  end
  T.eq(torch.diag(torch.ones(2), -1):size(0), 3)
  T.eq(torch.diag(torch.ones(3, 3), math.mininteger):numel(), 0)
end)

T.test('print options at the ends of int64 print as PyTorch, never overflow', function()
  -- the fuzzer's fixed_printoptions_linewidth_min: linewidth - indent overflowed
  local x = torch.arange(8.)
  torch.set_printoptions{linewidth = math.mininteger}
  T.eq(tostring(x), 'tensor([0.,\n        1.,\n        2.,\n        3.,\n        4.,\n        5.,\n        6.,\n        7.])')
  torch.set_printoptions{linewidth = math.maxinteger, edgeitems = math.maxinteger, threshold = 2}
  T.eq(tostring(x), 'tensor([0., 1., 2., 3., 4., 5., 6., 7.])')
  torch.set_printoptions{edgeitems = 0}
  T.eq(tostring(x), 'tensor([...], size=(8,))')
  -- negative counts are taken as 0 (PyTorch slices with them, and warns)
  torch.set_printoptions{edgeitems = math.mininteger}
  T.eq(tostring(x), 'tensor([...], size=(8,))')
  torch.set_printoptions{profile = 'default'}
  T.eq(tostring(x), 'tensor([0., 1., 2., 3., 4., 5., 6., 7.])')
end)

T.test('bool tensors from empty or from bytes hold valid bools (Note [Valid bools])', function()
  -- the fuzzer's fixed_empty_bool_uninitialized: new_empty's bytes read as bool (UBSan)
  local b = torch.ones(2, {dtype = torch.bool})
  for _, e in ipairs({torch.empty(3, {dtype = torch.bool}), b:new_empty(3), torch.empty_like(torch.ones(3):bool()),
                      torch.empty(3, {dtype = torch.bool, device = 'cuda:0'})}) do
    T.eq(tostring((e + e):cpu()), 'tensor([False, False, False])')
  end
  local f = torch.frombuffer('\2\0\255', {dtype = torch.bool})
  T.eq(tostring(f), 'tensor([ True, False,  True])')
  T.eq(tostring(f:to(torch.uint8)), 'tensor([1, 0, 1], dtype=torch.uint8)')
end)

T.test('repeat_interleave past int64: an error as PyTorch, never an overflow', function()
  -- the fuzzer's fixed_repeat_interleave_overflow: 108 * (2^63 - 1) in the merged size
  T.raises(function() return torch.ones(108):repeat_interleave(math.maxinteger) end,
           'RuntimeError: numel: integer multiplication overflow')
  T.raises(function() return torch.ones(2, 3):repeat_interleave(2^62 // 1, {dim = 1}) end,
           'RuntimeError: numel: integer multiplication overflow')
  T.eq(torch.ones(2, 3):repeat_interleave(2, {dim = 1}):size(1), 6)
end)

T.test('chunk into math.maxinteger pieces: one piece per entry, never an overflow', function()
  -- the fuzzer's fixed_chunk_count_overflow: n + chunks - 1 overflowed. PyTorch 2.15
  -- wraps there and says "split expects split_size be non-negative, but got
  -- split_size=-1"; gpulab gives what chunk means instead.
  local c = torch.arange(3):chunk(math.maxinteger)
  T.eq(#c, 3)
  T.eq(tostring(c[3]), 'tensor([2])')
  T.eq(#torch.arange(7):chunk(3), 3)
  T.eq(tostring(torch.arange(7):chunk(3)[3]), 'tensor([6])')
end)

T.test('repeat of an empty tensor a billion times: no list of a billion copies', function()
  -- the fuzzer's fixed_repeat_empty_huge_count: repeat planned one copy per repetition
  -- (a 16 GiB vector for 2^30 of them) even when the result was empty
  local z = torch.zeros(0, 2)
  T.eq(tostring(z['repeat'](z, 2^30 // 1, 1).shape), 'torch.Size([0, 2])')
  local o = torch.ones(1)['repeat'](torch.ones(1), 3)
  o[1] = 5  -- new memory, not a view of the one element
  T.eq(tostring(o), 'tensor([1., 5., 1.])')
end)

T.test('linspace and logspace with steps past memory: the size error, before any allocation', function()
  -- the fuzzer's torch.logspace(a, b, torch.seed()): a vector of 7.5e18 doubles
  -- was allocated before the size was checked (an abort under AddressSanitizer)
  for _, f in ipairs({torch.linspace, torch.logspace}) do
    T.raises(function() return f(0, 1, 2^62 // 1) end,
             'RuntimeError: Storage size calculation overflowed with sizes=[4611686018427387904]')
  end
  T.eq(tostring(torch.linspace(0, 1, 5)), 'tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])')
  T.eq(tostring(torch.logspace(0, 2, 3)), 'tensor([  1.,  10., 100.])')
end)

T.test('a tensor larger than memory and swap: PyTorch\'s allocation error, never a killed process', function()
  -- Note [Allocations past memory]: mimalloc's blocks escaped the kernel's
  -- overcommit check, and filling torch.zeros(2^39) got gpulab killed
  local msg = "RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: "
    .. 'you tried to allocate %d bytes. Error code 12 (Cannot allocate memory)'
  T.raises(function() return torch.zeros(2^39 // 1) end, msg:format(2^41 // 1))
  T.raises(function() return torch.arange(2^39 // 1) end, msg:format(2^42 // 1))
  T.eq(tostring(torch.zeros(2)), 'tensor([0., 0.])')
end)


-- Found by the fifth fuzz campaign: the CPU's integer matmul summed in int64,
-- so products past its range were undefined; both devices wrap as PyTorch.
T.test('integer matmul and addmm wrap around as PyTorch, never undefined', function()
  for _, dev in ipairs({'cpu', 'cuda:0'}) do
    local a = torch.tensor({{math.maxinteger, 3}}, {device = dev})
    local b = torch.tensor({{math.maxinteger}, {5}}, {device = dev})
    T.eq(tostring((a:matmul(b)):cpu()), 'tensor([[16]])')
    T.eq(tostring(torch.addmm(torch.tensor({{7}}, {device = dev}), a, b, {beta = 3, alpha = 2^62}):cpu()), 'tensor([[21]])')
    local c = torch.tensor({{100}}, {dtype = torch.int8, device = dev})
    T.eq(tostring(c:matmul(c):cpu()), 'tensor([[16]], dtype=torch.int8)')
  end
end)

-- Found by the sixth fuzz campaign: pooling's output size overflowed int64
-- (UBSan) for a kernel, dilation or stride near 2^63; conv2d's padded size
-- likewise. Each is now an error.
T.test('pooling and convolution geometry near 2^63 is an error, never an overflow', function()
  local F, x = nn.functional, torch.ones(1, 1, 3, 3)
  T.raises(function() return F.max_pool2d(x, 2, {stride = math.maxinteger, dilation = math.maxinteger}) end,
           'RuntimeError: Given input size: (1x3x3). Calculated output size: (1x0x0). Output size is too small')
  T.check(not pcall(F.max_pool2d, x, 2, {stride = math.maxinteger, ceil_mode = true}), 'huge stride, ceil_mode')
  T.check(not pcall(F.avg_pool2d, x, 3, {stride = math.maxinteger, ceil_mode = true}), 'avg, huge stride')
  T.raises(function() return F.conv2d(x, torch.ones(1, 1, 2, 2), nil, 1, 2^62 // 1) end,
           'RuntimeError: gpulab: conv2d padding too large: (4611686018427387904, 4611686018427387904)')
  T.raises(function() return F.conv2d(x, torch.ones(1, 1, 2, 2), nil, 1, 0, math.maxinteger) end,
           "Kernel size can't be greater than actual input size", true)
  T.check(not pcall(F.conv2d, x, torch.ones(1, 1, 2, 2), {dilation = math.maxinteger, padding = 'same'}), 'same')
  T.eq(tostring(F.max_pool2d(x, 2)), 'tensor([[[[1.]]]])')
end)

-- Found by the sixth fuzz campaign: narrow's bound check added start and length.
T.test('narrow with a length near 2^63 is an error, never an overflow', function()
  T.raises(function() return torch.ones(3):narrow(0, 1, math.maxinteger) end,
           'RuntimeError: start (1) + length (9223372036854775807) exceeds dimension size (3).')
  T.eq(tostring(torch.arange(3):narrow(0, 1, 2)), 'tensor([1, 2])')
end)

-- Found by the seventh fuzz campaign (a timeout): Lua's string.rep('', n) loops
-- n times in C, past any hook (Note [Empty string.rep]).
T.test("string.rep of an empty string returns at once, whatever the count", function()
  T.eq(('').rep('', math.maxinteger), '')
  T.eq(string.rep('', 2 ^ 62, ''), '')
  T.eq(('ab'):rep(3, ','), 'ab,ab,ab')
  T.raises(function() return string.rep('', 1.5) end, 'number has no integer representation', true)
end)

-- Found by the seventh fuzz campaign (clang's UBSan: null plus an offset in
-- Tensor::data_ptr, reached from write_in_place's aliasing test): a view into
-- a tensor of no elements keeps an offset into a storage with no data.
T.test('in-place ops between views of an empty tensor', function()
  local y = torch.ones(3, 0, 3, 3, {dtype = torch.int32})
  local x = y[2]
  T.raises(function() x:bitwise_and_(y) end,
           "RuntimeError: output with shape [0, 3, 3] doesn't match the broadcast shape [3, 0, 3, 3]")
  x:bitwise_and_(y[1])
  T.eq(tostring(x.shape), 'torch.Size([0, 3, 3])')
  T.eq(tostring(y[1]:add_(y[0])), 'tensor([], size=(0, 3, 3), dtype=torch.int32)')
  -- where views start: PyTorch's storage_offset() and data_ptr() (0 without data)
  T.eq(y[2]:storage_offset(), 18)
  T.eq(y[2]:data_ptr(), 0)
  local z = torch.arange(6):view(2, 3)
  T.eq(z[1]:storage_offset(), 3)
  T.eq(z[1]:data_ptr() - z:data_ptr(), 24)
  T.check(z:clone():data_ptr() ~= z:data_ptr(), 'a clone has its own memory')
end)

-- Found by the eleventh fuzz campaign (std::terminate): a convolution with an
-- empty kernel, or with no input channels, left the CPU's product with no
-- inner dimension; oneDNN refused it inside an OpenMP region, where an
-- exception ends the process (Note [Exceptions in parallel regions]). Now
-- PyTorch's error, and PyTorch's empty result (checked against 2.15).
T.test('convolutions with an empty kernel or no input channels', function()
  local F = torch.nn.functional
  for _, dev in ipairs({'cpu', 'cuda:0'}) do
    T.raises(function() return F.conv2d(torch.ones(1, 1, 3, 3, {device = dev}), torch.ones(3, 1, 0, 0, {device = dev})) end,
             'RuntimeError: kernel size should be greater than zero, but got kernel_height: 0 kernel_width: 0')
    T.raises(function() return F.conv2d(torch.ones(1, 0, 3, 3, {device = dev}), torch.ones(0, 0, 1, 1, {device = dev})) end,
             'RuntimeError: Given groups=1, expected weight to be at least 1 at dimension 0, but got weight of size [0, 0, 1, 1] instead')
    local x = torch.ones(2, 0, 4, 4, {device = dev, requires_grad = true})
    local w = torch.ones(3, 0, 2, 2, {device = dev, requires_grad = true})
    local b = torch.ones(3, {device = dev, requires_grad = true})
    local y = F.conv2d(x, w, b)
    T.eq(tostring(y.shape), 'torch.Size([2, 0, 3, 3])')
    T.eq(y.grad_fn:name(), 'ConvolutionBackward0')
    y:sum():backward()
    T.eq(tostring(x.grad.shape), 'torch.Size([2, 0, 4, 4])')
    T.eq(tostring(w.grad.shape), 'torch.Size([3, 0, 2, 2])')
    T.eq(tostring(b.grad), dev == "cpu" and "tensor([0., 0., 0.])" or "tensor([0., 0., 0.], device='cuda:0')")
    T.eq(tostring(F.conv2d(torch.ones(1, 0, 1, 1, {device = dev}), torch.ones(3, 0, 1, 1, {device = dev})).shape),
         'torch.Size([1, 0, 1, 1])')
  end
end)

-- Found by the eleventh fuzz campaign (10 GB of memory in 10 s): a module that
-- holds itself (m[3] = m) made state_dict() recurse with an ever longer key
-- prefix until Lua ran out of memory. PyTorch recurses for ever too and stops
-- at Python's limit; so does gpulab now, with its error (Note [Recursion depth]).
T.test('a module that holds itself: RecursionError, as in PyTorch', function()
  local nn = torch.nn
  local l = nn.Linear(2, 2)
  l.sub = l
  local calling = 'RecursionError: maximum recursion depth exceeded while calling a Python object'
  T.raises(function() return l:state_dict() end, calling)
  T.raises(function() return l:load_state_dict({}) end, calling)
  T.raises(function() return l:to('cpu') end, calling)
  T.raises(function() return l:apply(function() end) end, calling)
  T.raises(function() return tostring(l) end,
           'RecursionError: maximum recursion depth exceeded while getting the str of an object')
  T.eq(#l:modules(), 1)  -- these walks remember what they saw, as PyTorch's
  T.eq(#l:parameters(), 2)
  -- deep but finite nesting still works, and an error inside a walk leaves no trace
  local m = nn.Linear(1, 1)
  for _ = 1, 300 do m = nn.Sequential(m) end
  T.eq(#m:state_dict():keys(), 2)
  T.raises(function() return m:apply(function() error('ValueError: stop', 0) end) end, 'ValueError: stop')
  T.eq(m:apply(function() end), m)
  T.eq(#tostring(m), 185748)  -- PyTorch 2.15's repr of the same nesting: 185748 characters, 600 lines
  T.eq(select(2, tostring(m):gsub('\n', '')), 600)
end)

T.finish()
