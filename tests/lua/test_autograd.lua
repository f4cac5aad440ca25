-- Autograd from Lua: grad_fn names as PyTorch 2.x prints them, leaves and
-- .grad, backward with a gradient, accumulation, retain_graph, retain_grad,
-- gradients across devices and dtypes, in-place ops in a graph (ReLU(inplace)).
-- Run: gpulab --virtual-gpus 4 tests/lua/test_autograd.lua
-- Names: python3 -c 'import torch; x = torch.randn(2, 3, requires_grad=True); print((2 / x).grad_fn)' etc.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
local F = nn.functional

local function name(t) return t.grad_fn and t.grad_fn:name() or 'nil' end

T.test('grad_fn names match PyTorch', function()
  local x = torch.randn(2, 3, {requires_grad = true})
  local y = torch.randn(2, 3, {requires_grad = true})
  local w = torch.randn(3, 4, {requires_grad = true})
  local b = torch.randn(4, {requires_grad = true})
  local cases = {
    {x + y, 'AddBackward0'}, {x + 1, 'AddBackward0'}, {x - y, 'SubBackward0'}, {1 - x, 'RsubBackward1'},
    {x * y, 'MulBackward0'}, {x / y, 'DivBackward0'}, {x / 2, 'DivBackward0'}, {2 / x, 'MulBackward0'},
    {x ^ 2, 'PowBackward0'}, {x:abs() ^ y, 'PowBackward1'}, {2 ^ x, 'PowBackward2'}, {-x, 'NegBackward0'},
    {x:sum(), 'SumBackward0'}, {x:sum(0), 'SumBackward1'}, {x:mean(), 'MeanBackward0'}, {x:mean(1), 'MeanBackward1'},
    {x:relu(), 'ReluBackward0'}, {x:sigmoid(), 'SigmoidBackward0'}, {x:tanh(), 'TanhBackward0'},
    {x:view(6), 'ViewBackward0'}, {x:t(), 'TBackward0'}, {x.T, 'PermuteBackward0'}, {x:mm(w), 'MmBackward0'},
    {torch.addmm(b, x, w), 'AddmmBackward0'}, {nn.Linear(3, 4)(x), 'AddmmBackward0'},
    {nn.Linear(3, 4, {bias = false})(x), 'MmBackward0'}, {F.linear(x:view(1, 2, 3), w:t(), b), 'UnsafeViewBackward0'},
    {torch.matmul(x:view(1, 2, 3), w), 'UnsafeViewBackward0'}, {torch.matmul(x, w[':, 0']), 'MvBackward0'},
    {x:double(), 'ToCopyBackward0'}, {x:cuda(1), 'ToCopyBackward0'}, {x:cuda():cpu(), 'ToCopyBackward0'},
    {nn.MSELoss()(x, y), 'MseLossBackward0'}, {nn.CrossEntropyLoss()(x, torch.tensor({0, 2})), 'NllLossBackward0'},
    {x:unsqueeze(0):squeeze(0), 'SqueezeBackward1'}, {x:unsqueeze(0):squeeze(), 'SqueezeBackward0'},
    {x:var(), 'VarBackward0'}, {x:index_select(1, torch.tensor({0, 2})), 'IndexSelectBackward0'},
    {x:unbind(0)[1], 'UnbindBackward0'}, {x:split({1, 2}, 1)[2], 'SplitWithSizesBackward0'},
    {x:split(1)[1], 'SplitBackward0'}, {x['repeat'](x, 2, 1), 'RepeatBackward0'},
    {F.dropout(x, 0.5, true), 'MulBackward0'}, {F.dropout(x:cuda(1), 0.5, true), 'NativeDropoutBackward0'},
    {x:softmax(1), 'SoftmaxBackward0'}, {x:detach(), 'nil'},
  }
  for i, c in ipairs(cases) do T.eq(name(c[1]), c[2], 'case ' .. i) end
  T.eq(tostring(x:sum()):match('grad_fn=<(%w+)>'), 'SumBackward0')
end)

T.test('leaves, backward with a gradient, accumulation, retain_graph', function()
  local x = torch.tensor({1.0, 2.0, 3.0}, {requires_grad = true})
  T.eq(x.is_leaf, true)
  local y = x * x
  T.eq(y.is_leaf, false)
  y:backward(torch.tensor({1.0, 0.1, 0.01}), {retain_graph = true})
  T.close(x.grad, {2.0, 0.4, 0.06})
  local g = x.grad
  y:backward(torch.tensor({1.0, 1.0, 1.0}))
  T.close(x.grad, {4.0, 4.4, 6.06}, 1e-6)
  T.eq(x.grad, g, 'accumulates into the same tensor')
  T.raises(function() y:backward(torch.ones(3)) end, 'Trying to backward through the graph a second time', true)
  T.raises(function() (x * 2):backward() end, 'RuntimeError: grad can be implicitly created only for scalar outputs')
  x.grad:zero_()
  T.close(x.grad, {0, 0, 0})
  T.eq(torch.no_grad(function() return (x * 2).requires_grad end), false)
end)

T.test('retain_grad keeps a non-leaf gradient', function()
  local x = torch.tensor({1.0, 2.0}, {requires_grad = true})
  local h = x * 3
  T.eq(h:retain_grad(), nil)
  T.eq(h.retains_grad, true)
  T.eq(x.retains_grad, false)
  ;(h * h):sum():backward()
  T.close(h.grad, {6.0, 12.0})
  T.close(x.grad, {18.0, 36.0})
  T.eq((x * 2).grad, nil)
  T.raises(function() torch.ones(2):retain_grad() end,
    "RuntimeError: can't retain_grad on Tensor that has requires_grad=False")
end)

T.test('gradients flow back across devices and dtypes, broadcasting', function()
  local x = torch.tensor({{1.0, 2.0}, {3.0, 4.0}}, {requires_grad = true})
  local b = torch.tensor({10.0, 20.0}, {device = 'cuda:1', requires_grad = true})
  local out = ((x:cuda(1):double() + b:double()) * 2):sum()
  out:backward()
  T.eq(tostring(x.grad.device) .. ' ' .. tostring(x.grad.dtype), 'cpu torch.float32')
  T.close(x.grad, {{2, 2}, {2, 2}})
  T.eq(tostring(b.grad.device), 'cuda:1')
  T.close(b.grad, {4, 4})
  local m = torch.ones(2, 1, {requires_grad = true, device = 'cuda:0'})
  ;(m * torch.ones(1, 3, {device = 'cuda:0'})):sum():backward()
  T.close(m.grad, {{3}, {3}})
end)

T.test('in-place ops in a graph: ReLU(inplace) trains like ReLU', function()
  local function run(inplace)
    torch.manual_seed(4)
    local net = nn.Sequential(nn.Linear(3, 5), nn.ReLU{inplace = inplace}, nn.Linear(5, 1))
    local opt = torch.optim.SGD(net:parameters(), {lr = 0.1})
    local X, Y = torch.randn(8, 3), torch.randn(8, 1)
    local loss
    for _ = 1, 5 do
      opt:zero_grad()
      loss = nn.MSELoss()(net(X), Y)
      loss:backward()
      opt:step()
    end
    return loss:item(), net[0].weight:clone()
  end
  local l1, w1 = run(false)
  local l2, w2 = run(true)
  T.near(l2, l1, 1e-7)
  T.eq(w1:eq(w2):all():item(), true)
  local x = torch.randn(4, {requires_grad = true})
  local h = x * 2
  T.eq(h:relu_(), h, 'in-place ops return self')
  T.eq(name(h), 'ReluBackward0')
  local acc = torch.zeros(4)
  acc:add_(x, {alpha = 3})
  T.eq(name(acc), 'AddBackward0')
  acc:sum():backward()
  T.close(x.grad, {3, 3, 3, 3})
  T.raises(function() x:add_(1) end,
    'RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.')
  -- sigmoid keeps its output: changing it is allowed, the backward through it is not (Note [Version counter])
  local s = (x * 1):sigmoid()
  s:mul_(2)
  T.raises(function() s:sum():backward() end, 'which is output 0 of Sigmoid, is at version 1', true)
  local v = (x * 1):view(2, 2)  -- a view for autograd: gpulab rewrites no view's graph (Note [In-place autograd])
  T.raises(function() v:mul_(2) end, 'NotImplementedError: gpulab cannot record this in%-place operation', true)
end)

T.test('every creation function takes requires_grad, as in PyTorch', function()
  local x = torch.linspace(-3, 3, 5, {requires_grad = true})
  T.eq(tostring(x), 'tensor([-3.0000, -1.5000,  0.0000,  1.5000,  3.0000], requires_grad=True)')
  torch.sigmoid(x):sum():backward()
  T.eq(tostring(x.grad), 'tensor([0.0452, 0.1491, 0.2500, 0.1491, 0.0452])')
  T.eq(torch.randint(0, 5, {3}, {dtype = torch.float32, requires_grad = true}).requires_grad, true)
  T.eq(torch.randperm(3, {dtype = torch.float32, requires_grad = true}).requires_grad, true)
  T.eq(torch.eye(2, {requires_grad = true}).requires_grad, true)
  local y = torch.ones(2)
  T.eq(tostring(torch.full_like(y, 3, {requires_grad = true})), 'tensor([3., 3.], requires_grad=True)')
  for _, t in ipairs({y:new_zeros({2}, {requires_grad = true}), y:new_ones(2, {requires_grad = true}),
                      y:new_full({1}, 7, {requires_grad = true}), y:new_empty(0, {requires_grad = true})}) do
    T.eq(t.requires_grad, true)
  end
  T.raises(function() torch.randperm(3, {requires_grad = true}) end,
    'RuntimeError: Only Tensors of floating point and complex dtype can require gradients')
  T.raises(function() y:new_zeros({2}, {dtype = torch.int64, requires_grad = true}) end,
    'RuntimeError: Only Tensors of floating point and complex dtype can require gradients')
end)

T.test("a program without DistributedDataParallel meets no DDP frame in backward's traceback", function()
  T.eq(debug.getinfo(torch.Tensor.backward, 'S').what, 'C')
  local ok, err = xpcall(function() (torch.ones(2, {requires_grad = true}) * 2):backward() end, debug.traceback)
  T.eq(ok, false)
  T.eq(err:find('ddp', 1, true), nil, err)
end)

T.test('add_/sub_/add/sub take alpha', function()
  local a = torch.ones(3)
  T.eq(a:add_(torch.full({3}, 2.0), {alpha = -0.5}), a)
  T.close(a, {0, 0, 0})
  T.close(torch.sub(torch.ones(2), torch.ones(2), {alpha = 3}), {-2, -2})
  T.close(torch.ones(2):sub_(4, {alpha = 0.25}), {0, 0})
  T.close(torch.add(torch.ones(2), 1, {alpha = 2}), {3, 3})
end)

T.test('erf and erfinv: ErfBackward0, ErfinvBackward0 and PyTorch\'s gradients', function()
  local x = torch.tensor({0.3, -0.7}, {requires_grad = true})
  T.eq(name(x:erf()), 'ErfBackward0')
  T.eq(name(torch.erfinv(x)), 'ErfinvBackward0')
  local y = (x:erfinv() + x:erf()):sum()
  y:backward()
  T.close(x.grad, {1.9857814311981201, 2.2076382637023926}, 1e-6)
  local xc = torch.tensor({0.3, -0.7}, {requires_grad = true, device = 'cuda:1'})
  xc:erfinv():sum():backward()
  T.close(xc.grad, {0.9545204043388367, 1.516363263130188}, 1e-6, 'on a CUDA device')
end)

-- python3 -c 'import torch; a = torch.randn(2, requires_grad=True); print((a * a).grad_fn.next_functions)'
T.test('grad_fn.next_functions: {node, index} pairs, printed as PyTorch\'s tuple', function()
  local a = torch.randn(2, {requires_grad = true})
  local nf = (a * a).grad_fn.next_functions
  T.eq(#nf, 2)
  T.eq(nf[1][1]:name(), 'AccumulateGrad')
  T.eq(nf[1][2], 0)
  T.eq(nf[1][1], nf[2][1], 'one AccumulateGrad per leaf, as in PyTorch')
  T.eq(nf[1][1].variable, a, 'AccumulateGrad.variable is the leaf')
  local addr = tostring(nf[1][1]):match('0x%x+')
  T.truthy(addr, 'printed with an address')
  T.eq(tostring(nf), ('((<AccumulateGrad object at %s>, 0), (<AccumulateGrad object at %s>, 0))'):format(addr, addr))
  T.eq(repr(nf), tostring(nf), 'the REPL echoes it so')
  local mixed = (a + torch.ones(2)).grad_fn.next_functions
  T.eq(mixed[2][1], nil, 'None is nil')
  T.eq(#mixed[2], 2)
  T.eq(tostring(mixed[2]), '(None, 0)')
  T.eq(tostring(mixed), ('((<AccumulateGrad object at %s>, 0), (None, 0))'):format(addr))
  -- a number operand of add/sub/mul/div is a wrapped tensor in PyTorch: its edge is None
  for _, c in ipairs({{a + 3, 2}, {a * 2.5, 2}, {3 * a, 2}, {a / 4, 2}, {3 - a, 1}, {a ^ 2, 1}, {2 ^ a, 1}}) do
    T.eq(#c[1].grad_fn.next_functions, c[2], c[1].grad_fn:name())
  end
  T.eq(tostring((a * 3).grad_fn.next_functions), ('((<AccumulateGrad object at %s>, 0), (None, 0))'):format(addr))
  local s = a:sum()
  T.eq(tostring(s.grad_fn.next_functions), ('((<AccumulateGrad object at %s>, 0),)'):format(addr), 'a 1-tuple')
  T.eq(tostring(s.grad_fn.next_functions[1][1].next_functions), '()')
  -- a chain: MulBackward0 <- ExpBackward0 <- AccumulateGrad
  local e = a:exp()
  local z = e * 2
  T.eq(z.grad_fn.next_functions[1][1], e.grad_fn, 'the same node as the input\'s grad_fn')
  T.eq(z.grad_fn.next_functions[1][1].next_functions[1][1].variable, a)
  T.truthy(z.grad_fn ~= e.grad_fn)
  -- a leaf used twice still gets one summed gradient
  local w = torch.tensor({1.0, 2.0}, {requires_grad = true})
  ;(w * w + w):sum():backward()
  T.close(w.grad, {3, 5})
end)

T.test('zero_, fill_ and copy_ in a graph are recorded (values from PyTorch 2.15)', function()
  local x = torch.ones(3, {requires_grad = true})
  local y = x * 2
  y:zero_()
  T.eq(name(y), 'ZeroBackward0')
  y:sum():backward()
  T.eq(tostring(x.grad), 'tensor([0., 0., 0.])', 'the overwritten values get no gradient')
  x = torch.ones(3, {requires_grad = true})
  y = x * 2
  y:fill_(5)
  T.eq(tostring(y), 'tensor([5., 5., 5.], grad_fn=<FillBackward2>)')
  local w = torch.tensor(2.0, {requires_grad = true})
  y = torch.ones(3) * 1
  y:fill_(w)
  T.eq(name(y), 'FillBackward3')
  y:sum():backward()
  T.eq(tostring(w.grad), 'tensor(3.)', 'a 0-dim tensor value gets the sum')
  x = torch.ones(3, {requires_grad = true})
  y = torch.zeros(3, {dtype = torch.float64})
  y:copy_(x * 3)
  T.eq(tostring(y), 'tensor([3., 3., 3.], dtype=torch.float64, grad_fn=<CopyBackwards>)')
  y:sum():backward()
  T.eq(tostring(x.grad), 'tensor([3., 3., 3.])', 'the source gets the gradient, in its dtype')
  y = torch.zeros(3, {dtype = torch.int64})
  y:copy_(x)
  T.eq(tostring(y), 'tensor([1, 1, 1])', 'an integer copy is outside autograd')
  -- a shared self outside any graph (p.data) takes the plain copy, as target.data:copy_(p) wants
  local q = torch.zeros(3)
  q.data:copy_(x)
  T.eq(tostring(q), 'tensor([1., 1., 1.])')
  T.raises(function() x:zero_() end, 'RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.')
end)

T.test('backward{create_graph=true}: a gradient that can be differentiated again, as PyTorch', function()
  -- python: x = torch.tensor(2., requires_grad=True); (x ** 3).backward(create_graph=True)
  -- x.grad is tensor(12., grad_fn=<CopyBackwards>); its own backward gives 6x = 12
  local x = torch.tensor(2., {requires_grad = true})
  local y = x ^ 3
  y:backward{create_graph = true}
  T.eq(tostring(x.grad), 'tensor(12., grad_fn=<CopyBackwards>)')
  local g = x.grad
  x.grad = nil
  g:backward()
  T.eq(tostring(x.grad), 'tensor(12.)')
  -- retain_graph defaults to create_graph: a second backward works
  local z = torch.tensor(1., {requires_grad = true})
  local w = z * z
  w:backward{create_graph = true}
  w:backward()
  T.eq(z.grad:item(), 4.0)
  -- the reference cycle PyTorch's warning is about (z -> z.grad -> its graph -> z):
  -- reset the gradient to None after use, as the warning says
  z.grad = nil
end)

T.finish()
