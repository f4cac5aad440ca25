-- Convolution, pooling and normalisation against PyTorch: forward values and
-- gradients (tests/lua/data/conv_expected.lua, written by
-- tests/pytorch/gen_conv.py), on the CPU and on CUDA devices; each layer's
-- printed form, default initialisation, lazy layers, train()/eval(), apply().
-- Run: gpulab --virtual-gpus 4 tests/lua/test_nn_conv.lua
local dir = arg[0]:match('^(.*)[/\\]') or '.'
local T = dofile(dir .. '/testlib.lua')
local E = dofile(dir .. '/data/conv_expected.lua')
local F = nn.functional

local devices = {'cpu'}
if torch.cuda.is_available() then devices[#devices + 1] = 'cuda:' .. (torch.cuda.device_count() - 1) end

-- max |a - b| against a flat table of PyTorch's values.
local function max_diff(t, flat)
  local got = t:detach():cpu():double():reshape(-1):tolist()
  if #got ~= #flat then error(('size differs: %d vs %d'):format(#got, #flat), 2) end
  local m = 0
  for i = 1, #flat do m = math.max(m, math.abs(got[i] - flat[i])) end
  return m
end
local function check(t, flat, tol, what)
  local d = max_diff(t, flat)
  if d > tol then error(('%s: max difference %g > %g'):format(what, d, tol), 2) end
end

local function inputs(c, dev, as_double)
  local out = {}
  for i, shape in ipairs(c.shapes) do
    local x = torch.tensor(c.inputs[i], {dtype = (c.double or as_double) and torch.float64 or torch.float32}):reshape(shape)
    out[i] = x:to(dev):requires_grad_()
  end
  return out
end

-- Runs fn on the case's inputs, backpropagates PyTorch's upstream gradient and
-- compares the output, the grad_fn name and every input's gradient.
local function run_case(name, c, dev, fn, as_double)
  local ins = inputs(c, dev, as_double)
  local y = fn(ins)
  T.eq(tostring(y.shape), 'torch.Size([' .. table.concat(c.out_shape, ', ') .. '])', name .. ' shape')
  local tol = c.double and 1e-10 or 2e-5
  check(y, c.out, tol, name .. ' output')
  local gn = y.grad_fn and y.grad_fn:name() or 'nil'
  -- PyTorch runs an affine batch norm of 3 or more dimensions on CUDA by
  -- cuDNN (and names the node so).
  local cudnn = dev ~= 'cpu' and c.grad_fn == 'NativeBatchNormBackward0' and #c.out_shape >= 3
  local want_fn = cudnn and 'CudnnBatchNormBackward0' or c.grad_fn
  T.eq(gn, want_fn, name .. ' grad_fn')
  local g = torch.tensor(c.g, {dtype = y.dtype}):reshape(c.out_shape):to(dev)
  y:backward(g)
  for i, x in ipairs(ins) do check(x.grad, c.grads[i], tol * 5, ('%s grad %d'):format(name, i)) end
end

local function kwargs(c)
  local kw = {}
  for k, v in pairs(c.kw) do kw[k] = v end
  return kw
end

for _, dev in ipairs(devices) do
  for i, c in ipairs(E.conv) do
    T.test(('conv2d %d on %s'):format(i, dev), function()
      run_case('conv2d ' .. i, c, dev, function(x)
        local kw = kwargs(c)
        kw.bias = x[3]
        return F.conv2d(x[1], x[2], kw)
      end)
    end)
  end
  for i, c in ipairs(E.pool) do
    T.test(('pooling %d on %s'):format(i, dev), function()
      run_case('pool ' .. i, c, dev, function(x)
        local kw = kwargs(c)
        if kw.output_size then return F.adaptive_avg_pool2d(x[1], kw.output_size) end
        local k = kw.kernel_size
        kw.kernel_size = nil
        local f = c.grad_fn:find('Max') and F.max_pool2d or F.avg_pool2d
        return f(x[1], k, kw)
      end)
    end)
  end
  -- float32 runs the library's batch norm (oneDNN on the host), float64 the
  -- composed one; both against PyTorch's float32 values.
  for _, as_double in ipairs({false, true}) do
    for i, c in ipairs(E.norm) do
      T.test(('%s %d on %s%s'):format(c.kind, i, dev, as_double and ' in float64' or ''), function()
        local rm, rv
        local dt = as_double and torch.float64 or torch.float32
        run_case(c.kind .. ' ' .. i, c, dev, function(x)
          if c.kind == 'layer_norm' then return F.layer_norm(x[1], c.normalized_shape, x[2], x[3], 1e-5) end
          local C = x[1]:size(1)
          if c.kind == 'bn_train' then
            rm, rv = torch.zeros(C, {device = dev, dtype = dt}), torch.ones(C, {device = dev, dtype = dt})
            return F.batch_norm(x[1], rm, rv, x[2], x[3], true, 0.1, 1e-5)
          end
          return F.batch_norm(x[1], torch.linspace(-0.5, 0.5, C):to(dev, dt), torch.linspace(0.5, 2.0, C):to(dev, dt), x[2], x[3], false)
        end, as_double)
        if rm then
          check(rm, c.running_mean, 1e-6, 'running_mean')
          check(rv, c.running_var, 1e-5, 'running_var')
        end
      end)
    end
  end
end

T.test('batch norm without weight and bias: the library and the composed forms agree', function()
  for _, training in ipairs({true, false}) do
    local x = torch.randn(4, 3, 5):requires_grad_()
    local xd = x:detach():double():requires_grad_()
    local rm, rv = torch.linspace(-1, 1, 3), torch.linspace(0.5, 2, 3)
    local y = F.batch_norm(x, rm:clone(), rv:clone(), {training = training})
    local yd = F.batch_norm(xd, rm:double(), rv:double(), {training = training})
    local g = torch.randn(4, 3, 5)
    y:backward(g)
    yd:backward(g:double())
    T.truthy((y:double() - yd):abs():max():item() < 1e-5, 'forward')
    T.truthy((x.grad:double() - xd.grad):abs():max():item() < 1e-5, 'backward')
  end
end)

-- Without gradients an evaluation runs the library's inference kernels (on a
-- GPU cuDNN's cudnnBatchNormalizationForwardInference), with them the
-- composed form; both as float64 computes it.
T.test('batch norm in evaluation mode, with and without gradients, on every device', function()
  for _, dev in ipairs(devices) do
    local x = torch.randn(5, 4, 3, 3)
    local rm, rv, w, b = torch.randn(4), torch.rand(4) + 0.5, torch.randn(4), torch.randn(4)
    local want = F.batch_norm(x:double(), rm:double(), rv:double(), w:double(), b:double(), false)
    local function on(t) return t:to(dev) end
    local y = torch.no_grad(function() return F.batch_norm(on(x), on(rm), on(rv), on(w), on(b), false) end)
    T.truthy((y:cpu():double() - want):abs():max():item() < 1e-5, 'no grad on ' .. dev)
    local wg = on(w):requires_grad_()
    local yg = F.batch_norm(on(x), on(rm), on(rv), wg, on(b), false)
    T.truthy((yg:detach():cpu():double() - want):abs():max():item() < 1e-5, 'with grad on ' .. dev)
    yg:sum():backward()
    local gw = ((x:double() - rm:double():reshape(1, 4, 1, 1)) / (rv:double() + 1e-5):sqrt():reshape(1, 4, 1, 1))
    T.truthy((wg.grad:cpu():double() - gw:sum({0, 2, 3})):abs():max():item() < 1e-4, 'weight grad on ' .. dev)
  end
end)

-- PyTorch's CPU kernel averages int64 too, each sum divided as C++ divides
-- (toward zero); the values are PyTorch 2.15's.
T.test('avg_pool2d of int64 on the CPU, as PyTorch', function()
  local x = torch.tensor({{{{1, 2, -7}, {3, 5, 4}, {0, -1, -3}}}})
  T.eq(tostring(F.avg_pool2d(x, 2, {stride = 1})), 'tensor([[[[2, 1],\n          [1, 1]]]])')
  T.eq(tostring(F.avg_pool2d(x, 2, {stride = 1, padding = 1})),
    'tensor([[[[ 0,  0, -1, -1],\n          [ 1,  2,  1,  0],\n          [ 0,  1,  1,  0],\n          [ 0,  0, -1,  0]]]])')
  T.eq(tostring(F.avg_pool2d(x, 2, {stride = 1, padding = 1, count_include_pad = false})),
    'tensor([[[[ 1,  1, -2, -7],\n          [ 2,  2,  1, -1],\n          [ 1,  1,  1,  0],\n          [ 0,  0, -2, -3]]]])')
end)

T.test('default initialisation as PyTorch', function()
  torch.manual_seed(0)
  local m = nn.Conv2d(2, 3, 3)
  check(m.weight, E.init.weight, 1e-7, 'weight')
  check(m.bias, E.init.bias, 1e-7, 'bias')
end)

T.test('printed as PyTorch prints', function()
  for _, r in ipairs(E.reprs) do
    local m = load('return ' .. r[1])()
    T.eq(tostring(m), r[2], r[1])
  end
end)

T.test('lazy layers take their sizes at the first call', function()
  local net = nn.Sequential(nn.LazyConv2d(6, 5, {padding = 2}), nn.LazyBatchNorm2d(), nn.Sigmoid(),
                            nn.AvgPool2d(2, 2), nn.Flatten(), nn.LazyLinear(10))
  T.eq(tostring(net[0].weight), '<UninitializedParameter>')
  T.eq(tostring(net[1].running_mean), '<UninitializedBuffer>')
  local y = net(torch.randn(2, 1, 8, 8))
  T.eq(tostring(y.shape), 'torch.Size([2, 10])')
  T.eq(tostring(net[0]), 'Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1), padding=(2, 2))')
  T.eq(tostring(net[1]), 'BatchNorm2d(6, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)')
  T.eq(tostring(net[5]), 'Linear(in_features=96, out_features=10, bias=True)')
  T.eq(tostring(net[0].weight.shape), 'torch.Size([6, 1, 5, 5])')
  local n = 0
  for _ in pairs(net:parameters()) do n = n + 1 end
  T.eq(n, 6, 'parameters after the first call')
  T.eq(net[1].num_batches_tracked:item(), 1)
  -- apply(init_fn) as d2l's init_cnn: Xavier on Linear and Conv2d weights
  local seen = 0
  net:apply(function(m)
    if m:_get_name() == 'Linear' or m:_get_name() == 'Conv2d' then seen = seen + 1; nn.init.xavier_uniform_(m.weight) end
  end)
  T.eq(seen, 2)
end)

T.test('BatchNorm: running stats in train(), used in eval()', function()
  local bn = nn.BatchNorm2d(3)
  local x = torch.randn(4, 3, 5, 5) * 2 + 1
  bn(x)
  T.eq(bn.num_batches_tracked:item(), 1)
  local mean = x:mean({0, 2, 3})
  T.truthy((bn.running_mean - mean * 0.1):abs():max():item() < 1e-6, 'running_mean')
  bn:eval()
  local y = bn(x)
  local want = (x - bn.running_mean:reshape(1, 3, 1, 1)) / (bn.running_var:reshape(1, 3, 1, 1) + 1e-5):sqrt()
  T.truthy((y - want):abs():max():item() < 1e-5, 'eval uses running stats')
  T.eq(bn.num_batches_tracked:item(), 1, 'eval does not count')
  local cum = nn.BatchNorm1d(2, {momentum = false})
  cum(torch.tensor({{1.0, 2.0}, {3.0, 6.0}}))
  cum(torch.tensor({{5.0, 2.0}, {7.0, 2.0}}))
  T.close(cum.running_mean, {4.0, 3.0}, 1e-6, 'cumulative average (momentum=None): the mean of the two batch means')
end)

T.test("errors in PyTorch's words", function()
  local x = torch.randn(2, 3, 8, 8)
  T.raises(function() F.conv2d(torch.randn(3, 8), torch.randn(6, 3, 3, 3)) end,
    'RuntimeError: Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [3, 8]')
  T.raises(function() F.conv2d(x, torch.randn(6, 1, 3, 3)) end,
    'RuntimeError: Given groups=1, weight of size [6, 1, 3, 3], expected input[2, 3, 8, 8] to have 1 channels, but got 3 channels instead')
  T.raises(function() F.conv2d(x, torch.randn(6, 3, 9, 9)) end,
    "RuntimeError: Calculated padded input size per channel: (8 x 8). Kernel size: (9 x 9). Kernel size can't be greater than actual input size")
  T.raises(function() F.conv2d(x, torch.randn(6, 3, 3, 3), torch.randn(5)) end,
    'RuntimeError: Given weight of size [6, 3, 3, 3], expected bias to be 1-dimensional with 6 elements, but got bias of size [5] instead')
  T.raises(function() F.conv2d(x, torch.randn(6, 3, 3, 3), {padding = 'same', stride = 2}) end,
    "RuntimeError: padding='same' is not supported for strided convolutions")
  T.raises(function() F.conv2d(x:double(), torch.randn(6, 3, 3, 3)) end, 'RuntimeError: expected scalar type Double but found Float'
    .. "\nhint: the input is float64 and the layer's parameters float32: convert the input, X:float(), or the model, net:double()")
  T.raises(function() F.max_pool2d(x, 2, {padding = 2}) end,
    'RuntimeError: pad should be at most half of effective kernel size, but got pad=2, kernel_size=2 and dilation=1')
  T.raises(function() F.max_pool2d(torch.randn(1, 1, 2, 2), 3) end,
    'RuntimeError: Given input size: (1x2x2). Calculated output size: (1x0x0). Output size is too small')
  T.raises(function() F.batch_norm(x, torch.zeros(4), torch.ones(4)) end, 'RuntimeError: running_mean should contain 3 elements not 4')
  T.raises(function() nn.BatchNorm2d(3)(torch.randn(2, 3)) end, 'ValueError: expected 4D input (got 2D input)')
  -- the dtypes PyTorch's kernels are not written for: its NotImplementedError
  T.raises(function() F.batch_norm(x:long(), nil, nil, {training = true}) end,
    "NotImplementedError: \"batch_norm\" not implemented for 'Long'")
  T.raises(function() F.layer_norm(x:long(), {8}) end, "NotImplementedError: \"LayerNormKernelImpl\" not implemented for 'Long'")
  T.raises(function() F.max_pool2d(x:bool(), 2) end, "NotImplementedError: \"max_pool2d\" not implemented for 'Bool'")
  T.raises(function() F.avg_pool2d(x:int(), 2) end, "NotImplementedError: \"avg_pool2d\" not implemented for 'Int'")
  if torch.cuda.is_available() then
    T.raises(function() F.avg_pool2d(x:long():cuda(), 2) end,
      "NotImplementedError: \"avg_pool2d_out_cuda_frame\" not implemented for 'Long'")
  end
  T.raises(function() F.adaptive_avg_pool2d(x:long(), 2) end,
    "NotImplementedError: \"adaptive_avg_pool2d\" not implemented for 'Long'")
  T.raises(function() F.layer_norm(x, {7}) end,
    'RuntimeError: Given normalized_shape=[7], expected input with shape [*, 7], but got input of size[2, 3, 8, 8]')
  T.raises(function() nn.Conv2d(3, 6, 3, {groups = 2}) end, 'ValueError: in_channels must be divisible by groups')
  T.raises(function() nn.Conv2d(4, 6, 3, {padding = 'x'}) end, "ValueError: Invalid padding string 'x', should be one of {'same', 'valid'}")
  T.raises(function() F.adaptive_avg_pool2d(x, -5) end,
    'RuntimeError: adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {-5, -5}')
  T.raises(function() F.adaptive_avg_pool2d(x, {2, 3, 4}) end, 'RuntimeError: adaptive_avg_pool2d: output_size must be 2')
  T.raises(function() F.layer_norm(torch.randn(4, 3), {3}, torch.ones(2)) end,
    'RuntimeError: Expected weight to be of same shape as normalized_shape, but got weight of shape [2] and normalized_shape = [3]')
  -- no weight, bias or grad: nothing optional is read
  T.eq(tostring(F.conv2d(x, torch.randn(6, 3, 3, 3)).shape), 'torch.Size([2, 6, 6, 6])')
  T.eq(tostring(F.batch_norm(x, nil, nil, {training = true}).shape), 'torch.Size([2, 3, 8, 8])')
  T.eq(tostring(F.layer_norm(x, {8}).shape), 'torch.Size([2, 3, 8, 8])')
  if torch.cuda.device_count() >= 2 then
    T.raises(function() F.conv2d(x:to('cuda:0'), torch.randn(6, 3, 3, 3, {device = 'cuda:1'})) end,
      'RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cuda:1!', true)
  end
  if torch.cuda.is_available() then
    T.raises(function() F.conv2d(x, torch.randn(6, 3, 3, 3, {device = 'cuda:0'})) end,
      'RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same or input should be a MKLDNN tensor and weight is a dense tensor'
        .. '\nhint: move the input and the model to the same device')
    T.raises(function() F.conv2d(x:cuda(), torch.randn(6, 3, 3, 3):cuda(), torch.randn(6)) end,
      'RuntimeError: Input type (torch.cuda.FloatTensor) and bias type (torch.FloatTensor) should be the same'
        .. '\nhint: move the input and the model to the same device')
    -- the model left on the CPU: cuDNN's text, without oneDNN's clause (Note [Convolution type errors])
    T.raises(function() nn.Conv2d(3, 6, 3)(x:cuda()) end,
      'RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same'
        .. '\nhint: move the input and the model to the same device')
    T.raises(function() F.conv2d(x:cuda():bfloat16(), torch.randn(6, 3, 3, 3):cuda()) end,
      'RuntimeError: Input type (CUDABFloat16Type) and weight type (torch.cuda.FloatTensor) should be the same'
        .. "\nhint: the input is bfloat16 and the layer's parameters float32: convert the input, X:float(), or the model, net:bfloat16()")
    -- batch and layer norm keep the same-device rule (they computed on the input's device before)
    local HINT = 'move the input and the model (or both matrices) to the same device'
    local bn = nn.BatchNorm2d(3):to('cuda:0')
    T.raises(function() bn(x) end,
      'RuntimeError: Expected all tensors to be on the same device, but got weight is on cuda:0, different from other tensors on cpu (when checking argument in method wrapper_CUDA__native_batch_norm)\nhint: ' .. HINT)
    T.raises(function() nn.BatchNorm2d(3)(x:cuda()) end,
      'RuntimeError: Expected all tensors to be on the same device, but got weight is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA__native_batch_norm)\nhint: ' .. HINT)
    T.raises(function() F.batch_norm(x:cuda(), torch.zeros(3), torch.ones(3)) end,
      'RuntimeError: Expected all tensors to be on the same device, but got running_mean is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA__native_batch_norm)\nhint: ' .. HINT)
    T.raises(function() nn.LayerNorm(8):to('cuda:0')(x) end,
      'RuntimeError: Expected all tensors to be on the same device, but got weight is on cuda:0, different from other tensors on cpu (when checking argument in method wrapper_CUDA__native_layer_norm)\nhint: ' .. HINT)
  end
end)

-- d2l §7.6: LeNet's layer shapes, and a few training steps on one random batch
-- (the loss must fall), on the CPU and a CUDA device.
local function lenet()
  return nn.Sequential(
    nn.LazyConv2d(6, 5, {padding = 2}), nn.Sigmoid(), nn.AvgPool2d(2, 2),
    nn.LazyConv2d(16, 5), nn.Sigmoid(), nn.AvgPool2d(2, 2), nn.Flatten(),
    nn.LazyLinear(120), nn.Sigmoid(), nn.LazyLinear(84), nn.Sigmoid(), nn.LazyLinear(10))
end
T.test('LeNet: layer output shapes as in d2l', function()
  local net = lenet()
  local X = torch.rand(1, 1, 28, 28)
  local want = {'[1, 6, 28, 28]', '[1, 6, 28, 28]', '[1, 6, 14, 14]', '[1, 16, 10, 10]', '[1, 16, 10, 10]', '[1, 16, 5, 5]',
                '[1, 400]', '[1, 120]', '[1, 120]', '[1, 84]', '[1, 84]', '[1, 10]'}
  for i = 0, #net - 1 do
    X = net[i](X)
    T.eq(tostring(X.shape), 'torch.Size(' .. want[i + 1] .. ')', net[i]:_get_name())
  end
end)
for _, dev in ipairs(devices) do
  T.test('LeNet trains a few steps on ' .. dev, function()
    torch.manual_seed(0)
    local net = lenet()
    local X, y = torch.randn(16, 1, 28, 28):to(dev), torch.randint(0, 10, {16}):to(dev)
    net(X:narrow(0, 0, 1):cpu())  -- materialise on the CPU, then move, as d2l does
    net:to(dev)
    net:apply(function(m) if m:_get_name() == 'Linear' or m:_get_name() == 'Conv2d' then nn.init.xavier_uniform_(m.weight) end end)
    local opt = torch.optim.Adam(net:parameters(), {lr = 0.01})
    local loss_fn = nn.CrossEntropyLoss()
    local first, last
    for _ = 1, 20 do
      opt:zero_grad()
      local loss = loss_fn(net(X), y)
      loss:backward()
      opt:step()
      first = first or loss:item()
      last = loss:item()
    end
    T.truthy(last < first * 0.95, ('loss falls: %g -> %g'):format(first, last))
    T.eq(tostring(net[0].weight.device), dev)
  end)
end


-- Note [Convolution type errors]: PyTorch 2.15's texts on the CPU, from
-- tests/pytorch/gen_conv_type_errors.py (which rows take oneDNN for a float16 or
-- bfloat16 input depends on the CPU, there as here: this one has AVX-512 and no AVX512-FP16).
T.test('a convolution given a weight or bias of another dtype says what PyTorch says', function()
  local env = setmetatable({o = function(s, dt) return torch.ones(s, {dtype = dt}) end}, {__index = _G})
  local bad = {}
  for _, c in ipairs(dofile(dir .. '/data/conv_type_errors_expected.lua')) do
    local ok, got = pcall(assert(load('return ' .. c[1], c[1], 't', env)))
    got = ok and 'no error' or got:match('^[^\n]*')  -- PyTorch's text; gpulab's hint follows
    if got ~= c[2] then bad[#bad + 1] = ('%s\n  want %s\n  got  %s'):format(c[1], c[2], got) end
  end
  T.eq(table.concat(bad, '\n'), '')
  T.eq(select(2, pcall(nn.Conv2d(1, 2, 3), torch.ones(1, 1, 8, 8, {dtype = torch.float64}))),
       'RuntimeError: Input type (double) and bias type (float) should be the same\nhint: the input is float64 and the '
       .. "layer's parameters float32: convert the input, X:float(), or the model, net:double()")
  -- Fashion-MNIST's bytes without ToTensor, through d2l's LeNet: the hint says what to do
  T.eq(select(2, pcall(nn.Conv2d(1, 6, 5, {padding = 2}), torch.zeros(2, 1, 28, 28, {dtype = torch.uint8}))),
       'RuntimeError: Input type (unsigned char) and bias type (float) should be the same\nhint: the input is uint8 and '
       .. "the layer's parameters float32: convert the input, X:float() / 255 for pictures (a dataset's "
       .. 'transforms.ToTensor() does it)')
  T.eq(select(2, pcall(nn.Linear(3, 2), torch.ones(2, 3, {dtype = torch.float64}))),
       'RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float\nhint: the input is float64 and '
       .. "the layer's parameters float32: convert the input, X:float(), or the model, net:double()")
end)

T.finish()
