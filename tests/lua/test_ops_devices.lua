-- Every op on CUDA devices against the CPU result: contiguous, strided
-- (transposed, stepped) and broadcast inputs, empty tensors and odd sizes
-- (1, 7, 1023, 10^6 + 3), each dtype with its tolerance.
-- Run: gpulab --virtual-gpus 4 tests/lua/test_ops_devices.lua
-- Beside a real GPU the virtual devices are slices of it, so this checks the
-- CUDA kernels through the whole op layer; without one they are emulated in
-- host memory and it checks the device plumbing (copies, dtypes, views).
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')

local n_dev = torch.cuda.device_count()
local devices = {'cuda:0', 'cuda:' .. (n_dev - 1)}
print('devices: ' .. torch.cuda.get_device_name(0) .. (n_dev > 1 and (' ... cuda:' .. (n_dev - 1)) or ''))

-- rtol, atol by dtype: a GPU's transcendental functions and summation order
-- differ from the CPU's by a few ulps.
local tols = {
  ['torch.float64'] = {1e-12, 1e-12}, ['torch.float32'] = {2e-5, 2e-5},
  ['torch.float16'] = {1e-2, 1e-3}, ['torch.bfloat16'] = {2e-2, 1e-2},
}

-- got (any device) equals want (CPU): dtype, shape, NaN and inf positions,
-- values within the dtype's tolerance (times `scale`); integers and bools exactly.
local function same(got, want, what, scale)
  T.eq(got.device.type, 'cuda', what .. ': result device')
  got = got:cpu()
  T.eq(got.dtype, want.dtype, what .. ': dtype')
  T.eq(tostring(got.shape), tostring(want.shape), what .. ': shape')
  if want:numel() == 0 then return end
  if not want:is_floating_point() then
    T.truthy(got:eq(want):all():item(), what .. ': values differ')
    return
  end
  local g, w = got:double(), want:double()
  local gnan, wnan = g:isnan(), w:isnan()
  T.truthy(gnan:eq(wnan):all():item(), what .. ': NaN positions differ')
  local winf = w:isinf()
  T.truthy(g:eq(w):logical_or(winf:logical_not()):all():item(), what .. ': infinities differ')
  local skip = wnan:logical_or(winf)
  g, w = g:masked_fill(skip, 0), w:masked_fill(skip, 0)
  local rtol, atol = table.unpack(tols[tostring(want.dtype)])
  scale = scale or 1
  local excess = ((g - w):abs() - (w:abs() * rtol + atol) * scale):max():item()
  if excess > 0 then
    local i = ((g - w):abs() - w:abs() * rtol * scale):argmax():item()
    error(('%s: got %.9g, want %.9g at flat index %d'):format(what, g:flatten()[i]:item(), w:flatten()[i]:item(), i), 2)
  end
end

-- An input made on each device as a view of `base` (moving a view would
-- make it contiguous): view(base, function(b) return b:t() end).
local View = {}
local function view(base, fn) return setmetatable({base = base, fn = fn}, View) end

-- Gives an input on `dev` (a fresh copy on the CPU too: f may work in place).
local function place(x, dev)
  if getmetatable(x) == View then return x.fn(place(x.base, dev)) end
  if not torch.is_tensor(x) then return x end
  return dev == 'cpu' and x:clone() or x:to(dev)
end

-- Runs f on CPU inputs and on the same inputs made on each device; f may
-- return several tensors.
local function check(what, f, inputs, scale)
  local cpu_in = {}
  for i, x in ipairs(inputs) do cpu_in[i] = place(x, 'cpu') end
  local want = table.pack(f(table.unpack(cpu_in)))
  for _, dev in ipairs(devices) do
    local moved = {}
    for i, x in ipairs(inputs) do moved[i] = place(x, dev) end
    local got = table.pack(f(table.unpack(moved)))
    T.eq(got.n, want.n, what .. ': number of results')
    for i = 1, want.n do
      if torch.is_tensor(want[i]) then same(got[i], want[i], ('%s on %s (result %d)'):format(what, dev, i), scale)
      else T.eq(got[i], want[i], what .. ' on ' .. dev) end
    end
  end
end

torch.manual_seed(0)
local sizes = {0, 1, 7, 1023, 1000003}

-- Inputs of n elements: a contiguous vector and a stepped view of a longer one.
local function layouts(n, make)
  return {contiguous = make(n), stepped = view(make(2 * n), function(b) return b['::2'] end)}
end
local function randf(n) return torch.randn(n) end
local function posf(n) return torch.rand(n) + 0.1 end
local function randi(n) return torch.randint(-40, 40, {n}) end

T.test('unary ops', function()
  local ops = {'abs', 'neg', 'exp', 'expm1', 'sin', 'cos', 'tan', 'tanh', 'sigmoid', 'relu', 'floor', 'ceil',
               'round', 'trunc', 'sign', 'square', 'reciprocal', 'isnan', 'isinf', 'isfinite', 'logical_not'}
  local pos_ops = {'log', 'log1p', 'log2', 'sqrt', 'rsqrt'}
  for _, n in ipairs(sizes) do
    local big = n > 2000
    for layout, x in pairs(layouts(n, randf)) do
      for _, op in ipairs(big and {'abs', 'exp', 'tanh', 'sigmoid'} or ops) do
        check(('%s(%s %d)'):format(op, layout, n), function(a) return a[op](a) end, {x})
      end
    end
    if not big then
      for layout, x in pairs(layouts(n, posf)) do
        for _, op in ipairs(pos_ops) do
          check(('%s(%s %d)'):format(op, layout, n), function(a) return a[op](a) end, {x})
        end
      end
      for _, op in ipairs({'abs', 'neg', 'sign', 'square'}) do
        check(('%s(int64 %d)'):format(op, n), function(a) return a[op](a) end, {randi(n)})
      end
    end
  end
end)

T.test('unary ops in reduced precision and in place', function()
  for _, dt in ipairs({torch.float16, torch.bfloat16, torch.float64}) do
    local x = torch.randn(1023):to(dt)
    for _, op in ipairs({'exp', 'sin', 'tanh', 'sigmoid', 'abs', 'neg', 'relu'}) do
      check(op .. ' ' .. tostring(dt), function(a) return a[op](a) end, {x})
    end
  end
  check('exp_ on a transposed view', function(a) local v = a:t(); v:exp_(); return a end, {torch.randn(7, 13)})
  check('sum of a transposed view made on the device', function(a) return a:sum(0), a + 1 end,
        {view(torch.randn(7, 13), function(b) return b:t() end)}, 10)
  check('mul_ by a scalar on a stepped view', function(a) a['::3']:mul_(2.5); return a end, {torch.randn(1023)})
end)

T.test('binary ops: tensors, scalars, broadcasting, dtype promotion', function()
  local ops = {'add', 'sub', 'mul', 'div', 'maximum', 'minimum', 'atan2', 'eq', 'ne', 'lt', 'le', 'gt', 'ge'}
  for _, n in ipairs(sizes) do
    local big = n > 2000
    local a, b = layouts(n, randf), layouts(n, randf)
    for _, op in ipairs(big and {'add', 'mul', 'gt'} or ops) do
      check(('%s(%d)'):format(op, n), function(x, y) return x[op](x, y) end, {a.contiguous, b.contiguous})
      check(('%s(stepped %d)'):format(op, n), function(x, y) return x[op](x, y) end, {a.stepped, b.contiguous})
    end
  end
  local m, k = torch.randn(7, 1), torch.randn(1, 13)
  for _, op in ipairs({'add', 'sub', 'mul', 'div', 'maximum', 'pow', 'remainder', 'lt'}) do
    check(op .. ' broadcast (7,1) with (1,13)', function(x, y) return x[op](x, y) end, {m:abs() + 0.5, k})
    check(op .. ' transposed with broadcast row', function(x, y) return x:t()[op](x:t(), y) end,
          {torch.randn(13, 7):abs() + 0.5, torch.randn(13)})
  end
  check('add with alpha', function(x, y) return x:add(y, {alpha = 2.5}) end, {torch.randn(1023), torch.randn(1023)})
  check('tensor + scalar, scalar * tensor', function(x) return x + 2.5, 3 * x, x / 4, x - 1 end, {torch.randn(1023)})
  check('pow by scalars', function(x) return x:pow(2), x:pow(0.5), x:pow(-1) end, {torch.rand(1023) + 0.1})
  check('clamp', function(x) return x:clamp(-0.5, 0.5), x:clamp({min = 0}) end, {torch.randn(1023)})
  check('int64 + float32 promotes', function(x, y) return x + y, x * 2.5, x:div(7) end, {randi(1023), torch.randn(1023)})
  check('float16 + float32 promotes', function(x, y) return x + y end, {torch.randn(1023):half(), torch.randn(1023)})
  local i, j = randi(1023), torch.randint(1, 9, {1023})
  for _, op in ipairs({'add', 'sub', 'mul', 'floor_divide', 'remainder', 'bitwise_and', 'bitwise_or', 'bitwise_xor',
                       'maximum', 'eq', 'lt'}) do
    check(op .. ' int64', function(x, y) return x[op](x, y) end, {i, j})
    check(op .. ' int32', function(x, y) return x[op](x, y) end, {i:int(), j:int()})
  end
  local p, q = torch.rand(1023):gt(0.5), torch.rand(1023):gt(0.5)
  for _, op in ipairs({'logical_and', 'logical_or', 'logical_xor', 'eq', 'bitwise_and'}) do
    check(op .. ' bool', function(x, y) return x[op](x, y) end, {p, q})
  end
end)

T.test('where, masked_fill, fill_, zero_', function()
  for _, n in ipairs({0, 1, 7, 1023}) do
    local x, y = torch.randn(n), torch.randn(n)
    check('where ' .. n, function(a, b) return torch.where(a:gt(0), a, b) end, {x, y})
    check('where with a broadcast scalar tensor', function(a) return torch.where(a:gt(0), a, torch.zeros(1, {device = a.device})) end, {x})
    check('masked_fill ' .. n, function(a) return a:masked_fill(a:lt(0), -1.5) end, {x})
  end
  check('fill_ and zero_ on views', function(a)
    a[':, 1']:fill_(7)
    a['2:4']:zero_()
    return a
  end, {torch.randn(6, 5)})
end)

T.test('reductions over all, over dims, keepdim, empty', function()
  for _, n in ipairs({1, 7, 1023, 1000003}) do
    local x = torch.randn(n)
    -- summation order differs: tolerance grows with the number of terms
    local s = math.max(1, math.sqrt(n) / 10)
    check('sum ' .. n, function(a) return a:sum() end, {x}, s * 10)
    check('mean ' .. n, function(a) return a:mean() end, {x}, s * 10)
    check('max/min/argmax/argmin ' .. n, function(a) return a:max(), a:min(), a:argmax(), a:argmin() end, {x})
    check('amax/amin ' .. n, function(a) return a:amax(), a:amin() end, {x})
    check('norm ' .. n, function(a) return a:norm() end, {x}, s)
    if n < 2000 then
      check('std/var ' .. n, function(a) return a:std(), a:var() end, {x}, 10)
      check('prod ' .. n, function(a) return (a:abs() + 0.5):prod() end, {x:narrow(0, 0, math.min(n, 40))}, 10)
    end
  end
  local m = torch.randn(37, 129)
  for _, dim in ipairs({0, 1, -1}) do
    check('sum dim ' .. dim, function(a) return a:sum(dim), a:sum(dim, true) end, {m}, 10)
    check('mean dim ' .. dim, function(a) return a:mean(dim) end, {m}, 10)
    check('max dim ' .. dim, function(a) return a:max(dim) end, {m})
    check('min dim ' .. dim .. ' keepdim', function(a) return a:min(dim, true) end, {m})
    check('argmax dim ' .. dim, function(a) return a:argmax(dim) end, {m})
    check('amax dim ' .. dim, function(a) return a:amax(dim) end, {m})
    check('std dim ' .. dim, function(a) return a:std(dim) end, {m}, 10)
    check('sum dim of a transposed view ' .. dim, function(a) return a:t():sum(dim) end, {m}, 10)
  end
  check('sum over dims {0, 2}', function(a) return a:sum({0, 2}) end, {torch.randn(5, 6, 7)}, 10)
  check('int64 sum, prod, max; ties pick the first index', function(a)
    return a:sum(), a:sum(1), a:max(), a:argmax(), a:argmax(1), a:argmin(0)
  end, {torch.randint(0, 3, {9, 11})})
  check('bool any/all, sum of bools', function(a) return a:any(), a:all(), a:sum(), a:any(1) end,
        {torch.rand(9, 11):gt(0.3)})
  check('float16 sum accumulates in float32', function(a) return a:sum(), a:mean() end, {torch.ones(100000):half()})
  check('empty reductions', function(a) return a:sum(), a:sum(0), a:prod(), a:any(), a:all() end, {torch.zeros(0)})
  check('sum over an empty dim', function(a) return a:sum(1) end, {torch.zeros(3, 0)})
end)

-- The CUDA scan keeps the CPU's order and accumulator (double for float32):
-- its results are the CPU's bit for bit (scale 0).
T.test('cumsum, cumprod: every layout and dtype, exactly', function()
  for _, n in ipairs(sizes) do
    for layout, x in pairs(layouts(n, randf)) do
      check(('cumsum(%s %d)'):format(layout, n), function(a) return a:cumsum(0) end, {x}, 0)
      check(('cumprod(%s %d)'):format(layout, n), function(a) return (a:abs() + 0.5):cumprod(0) end, {x}, 0)
    end
    if n < 2000 then
      check(('int64 cumsum, cumprod %d'):format(n), function(a) return a:cumsum(-1), a:cumprod(0) end, {randi(n)}, 0)
    end
  end
  local m = torch.randn(37, 129)
  for _, dim in ipairs({0, 1, -1}) do
    check('cumsum, cumprod dim ' .. dim, function(a) return a:cumsum(dim), a:cumprod(dim) end, {m}, 0)
    check('cumsum of a transposed view dim ' .. dim, function(a) return a:t():cumsum(dim) end, {m}, 0)
  end
  check('cumsum of the middle dim', function(a) return a:cumsum(1), a:cumprod(1) end, {torch.randn(5, 6, 7)}, 0)
  for _, dt in ipairs({torch.float16, torch.bfloat16, torch.float64}) do
    check('cumsum, cumprod ' .. tostring(dt), function(a) return a:cumsum(1), a:cumprod(0) end, {torch.randn(9, 300):to(dt)}, 0)
  end
  check('bool and int32 give int64; dtype=', function(a)
    return a:cumsum(1), a:int():cumprod(1), a:cumsum(0, {dtype = torch.float64})
  end, {torch.rand(9, 11):gt(0.3)}, 0)
  check('0-d and empty', function(a, e) return a:cumsum(0), a:cumprod(-1), e:cumsum(0), e:cumprod(1) end,
        {torch.tensor(2.5), torch.zeros(0, 3)}, 0)
  check('gradients, with zeros', function(a)
    a = a:clone():requires_grad_()
    a:cumprod(1):sum():backward()
    local g1 = a.grad
    a.grad = nil
    a:cumsum(0):sum():backward()
    return g1, a.grad
  end, {torch.tensor({{2., 0., 3., 0., 5.}, {1., 2., 0., 4., 0.5}, {0.5, 1.5, 2., 3., 4.}})}, 0)
end)

T.test('softmax, log_softmax', function()
  local x = torch.randn(17, 33) * 5
  for _, dim in ipairs({0, 1}) do
    check('softmax dim ' .. dim, function(a) return a:softmax(dim), a:log_softmax(dim) end, {x}, 10)
  end
  check('softmax of a transposed view', function(a) return a:t():softmax(1) end, {x}, 10)
end)

T.test('matmul: mm, bmm, matmul, addmm, dot; transposed operands; dtypes', function()
  local shapes = {{1, 1, 1}, {7, 13, 5}, {64, 64, 64}, {129, 257, 65}, {3, 0, 4}, {0, 5, 3}}
  for _, s in ipairs(shapes) do
    local m, k, n = s[1], s[2], s[3]
    local a, b = torch.randn(m, k), torch.randn(k, n)
    local scale = math.max(1, k / 8)
    check(('mm %dx%d @ %dx%d'):format(m, k, k, n), function(x, y) return x:mm(y) end, {a, b}, scale)
    check(('mm transposed operands %dx%dx%d'):format(m, k, n), function(x, y) return x:t():mm(y:t()) end,
          {a:t():contiguous(), b:t():contiguous()}, scale)
  end
  check('mm float64', function(x, y) return x:mm(y) end, {torch.randn(33, 17):double(), torch.randn(17, 9):double()}, 10)
  for _, dt in ipairs({torch.float16, torch.bfloat16}) do
    check('mm ' .. tostring(dt), function(x, y) return x:mm(y) end, {torch.randn(33, 64):to(dt), torch.randn(64, 9):to(dt)}, 4)
  end
  check('bmm', function(x, y) return torch.bmm(x, y) end, {torch.randn(3, 7, 13), torch.randn(3, 13, 5)}, 2)
  check('matmul broadcasts a batch', function(x, y) return torch.matmul(x, y) end, {torch.randn(2, 3, 7, 13), torch.randn(13, 5)}, 2)
  check('matmul vector cases', function(x, y, v)
    return torch.matmul(x, v), torch.matmul(v, y), torch.dot(v, v)
  end, {torch.randn(7, 13), torch.randn(13, 5), torch.randn(13)}, 2)
  check('addmm', function(c, x, y) return torch.addmm(c, x, y) end, {torch.randn(5), torch.randn(7, 13), torch.randn(13, 5)}, 2)
  check('linear layer forward', function(x, w, b) return x:matmul(w:t()) + b end,
        {torch.randn(8, 784), torch.randn(256, 784) * 0.03, torch.randn(256)}, 20)
end)

T.test('mixed precision: float16/bfloat16 convolution, norms and softmax; an autocast step', function()
  for _, dt in ipairs({torch.float16, torch.bfloat16}) do
    local name = tostring(dt)
    check('conv2d ' .. name, function(a, k, c) return nn.functional.conv2d(a, k, c, {padding = 1}) end,
          {torch.randn(2, 3, 9, 9):to(dt), (torch.randn(4, 3, 3, 3) * 0.3):to(dt), torch.randn(4):to(dt)}, 4)
    check('softmax ' .. name, function(a) return a:softmax(1), a:log_softmax(1) end, {torch.randn(5, 33):to(dt)}, 2)
    -- a reduced-precision input with float32 parameters and statistics (Note [Mixed-precision norms])
    check('batch_norm mixed ' .. name, function(a, rm, rv, g, b)
      return nn.functional.batch_norm(a, rm, rv, g, b, true), rm, rv
    end, {torch.randn(4, 3, 5, 5):to(dt), torch.zeros(3), torch.ones(3), torch.rand(3) + 0.5, torch.randn(3)}, 4)
    check('layer_norm mixed ' .. name, function(a, g, b) return nn.functional.layer_norm(a, {6}, g, b) end,
          {torch.randn(4, 6):to(dt), torch.rand(6) + 0.5, torch.randn(6)}, 4)
  end
  -- the same autocast policy on both device types (linear low, cross_entropy float32), with gradients
  check('autocast float16 linear, loss and gradients', function(x, w, b, y)
    local wl, bl = w:clone():requires_grad_(), b:clone():requires_grad_()
    local out, loss = torch.autocast(x.device.type, {dtype = torch.float16}, function()
      local o = nn.functional.linear(x, wl, bl)
      return o, nn.functional.cross_entropy(o, y)
    end)
    loss:backward()
    return out, loss, wl.grad, bl.grad
  end, {torch.randn(16, 32), torch.randn(10, 32) * 0.2, torch.randn(10), torch.randint(0, 10, {16})}, 4)
end)

T.test('casts between every pair of dtypes', function()
  local dts = {torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.int16,
               torch.int8, torch.uint8, torch.bool}
  -- values every dtype holds (uint8: no negatives), with fractions to truncate
  local src = (torch.rand(1023) * 100):floor() / 4
  for _, from in ipairs(dts) do
    local x = src:to(from)
    for _, to in ipairs(dts) do
      check(('cast %s -> %s'):format(tostring(from), tostring(to)), function(a) return a:to(to) end, {x})
    end
    check('cast of a transposed view from ' .. tostring(from), function(a) return a:t():float() end, {x:reshape(31, 33)})
  end
  check('float -> int truncates towards zero', function(a) return a:long(), a:int() end, {torch.randn(1023) * 50})
  check('nan and inf survive float casts', function(a) return a:half(), a:double(), a:bfloat16() end,
        {torch.tensor({0 / 0, 1 / 0, -1 / 0, 1e-40, 65519, 70000, -0.0})})
end)

T.test('views, copies, indexing, cat and stack on the device', function()
  local x = torch.randn(6, 7, 5)
  check('contiguous of permuted/transposed views', function(a)
    return a:transpose(0, 2):contiguous(), a:permute(1, 2, 0):contiguous(), a[':, :, 1']:t():contiguous()
  end, {x})
  check('narrow, select, slices, reshape, flatten', function(a)
    return a:narrow(1, 2, 3):clone(), a:select(2, 4):clone(), a['1:5:2, ::3'], a:reshape(42, 5), a:flatten(), a:view(6, 35)
  end, {x})
  check('expand then contiguous', function(a) return a:expand(4, 7):contiguous() end, {torch.randn(1, 7)})
  check('index with a tensor and with a mask', function(a, i)
    return a[i], a[a:gt(0)], a[':, 1'][a[':, 1']:lt(0)]
  end, {torch.randn(9, 4), torch.tensor({0, 8, 3, 3})})
  check('assignment through slices and masks', function(a)
    a['1:3'] = 0
    a[a:gt(1)] = -1
    a[':, 0'] = torch.arange(9, {dtype = torch.float32, device = a.device})
    return a
  end, {torch.randn(9, 4)})
  check('cat and stack', function(a, b)
    return torch.cat({a, b}), torch.cat({a, b}, 1), torch.stack({a, b}), torch.stack({a:t(), b:t()}, 2)
  end, {torch.randn(3, 4), torch.randn(3, 4)})
  check('copy_ into a strided destination', function(a, b) a:t():copy_(b); return a end, {torch.zeros(5, 3), torch.randn(3, 5)})
  check('copy_ casts', function(a, b) a:copy_(b); return a end, {torch.zeros(7, {dtype = torch.float16}), torch.randn(7)})
  check('split, chunk, unbind', function(a)
    local p = a:split(2)
    local c = a:chunk(3, 1)
    local u = a:unbind(0)
    return p[1], p[3], c[2], u[4]
  end, {torch.randn(5, 6)})
end)

T.test('creation on the device matches the CPU', function()
  for _, dev in ipairs(devices) do
    local o = {device = dev}
    same(torch.zeros(3, 4, o), torch.zeros(3, 4), 'zeros')
    same(torch.ones(1023, {device = dev, dtype = torch.float16}), torch.ones(1023, {dtype = torch.float16}), 'ones half')
    same(torch.full({2, 3}, 2.5, o), torch.full({2, 3}, 2.5), 'full')
    same(torch.arange(0, 1023, 3, o), torch.arange(0, 1023, 3), 'arange int64')
    same(torch.arange(0, 1, 0.125, o), torch.arange(0, 1, 0.125), 'arange float')
    same(torch.linspace(-1, 1, 1023, o), torch.linspace(-1, 1, 1023), 'linspace')
    same(torch.eye(7, 5, o), torch.eye(7, 5), 'eye')
    same(torch.tensor({{1, 2}, {3, 4}}, o), torch.tensor({{1, 2}, {3, 4}}), 'tensor')
    same(torch.zeros(0, 3, o), torch.zeros(0, 3), 'empty')
    local r = torch.rand(100000, o)
    T.truthy(r:min():item() >= 0 and r:max():item() < 1, 'rand in [0, 1) on ' .. dev)
    T.near(r:mean():item(), 0.5, 0.01, 'rand mean on ' .. dev)
    local g = torch.randn(100000, o)
    T.near(g:mean():item(), 0, 0.02, 'randn mean on ' .. dev)
    T.near(g:std():item(), 1, 0.02, 'randn std on ' .. dev)
    local i = torch.randint(-3, 5, {100000}, o)
    T.eq(i:min():item(), -3, 'randint low on ' .. dev)
    T.eq(i:max():item(), 4, 'randint high on ' .. dev)
  end
end)

T.test('copies between devices and queued work without explicit synchronisation', function()
  local x = torch.randn(1000003)
  local last = devices[#devices]
  same(x:to('cuda:0'):to(last):to('cuda:0'), x, 'cpu -> cuda:0 -> last -> cuda:0')
  same(x['::2']:to(last), x['::2'], 'a stepped view to a device')
  same(x:to('cuda:0')['::2']:to(last), x['::2'], 'a stepped view on one device to another')
  local y = torch.zeros(7, 5, {device = 'cuda:0'})
  y:t():copy_(torch.randn(5, 7, {device = last}))
  T.eq(y.device.index, 0, 'copy_ across devices keeps the destination')
  -- A chain of queued ops, read back once: the read must wait for all of it.
  local want = x:clone()
  local got = x:to('cuda:0')
  for _ = 1, 50 do
    want = (want * 1.0001 + 0.001):tanh()
    got = (got * 1.0001 + 0.001):tanh()
  end
  same(got, want, '50 queued ops', 10)
  T.near(got:sum():item(), want:sum():item(), 1e-1, 'item() after queued ops')
end)

T.finish()
