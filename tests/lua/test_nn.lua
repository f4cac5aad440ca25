-- nn.Module, layers, printing, state_dict and device moves.
-- Run: gpulab --virtual-gpus 4 tests/lua/test_nn.lua
-- Expected strings and numbers come from PyTorch 2.x (CPU build, Python 3.11),
-- e.g. python3 -c 'import torch; from torch import nn; torch.manual_seed(0);
--   l = nn.Linear(3, 1); print(l); print(l.weight); print(l.weight.tolist())'
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')

local Model = nn.Module:extend('Model')
function Model:__init(i, o)
  nn.Module.__init(self)
  self.fc = nn.Linear(i, o)
end
function Model:forward(x) return self.fc(x) end

T.test('module printing matches PyTorch', function()
  T.eq(tostring(nn.Linear(3, 1)), 'Linear(in_features=3, out_features=1, bias=True)')
  T.eq(tostring(nn.Linear(3, 1, {bias = false})), 'Linear(in_features=3, out_features=1, bias=False)')
  T.eq(tostring(nn.Linear{3, 1, bias = false}), 'Linear(in_features=3, out_features=1, bias=False)')
  local net = nn.Sequential(nn.Linear(5, 2), nn.ReLU(), nn.Sequential(nn.Linear(2, 2), nn.Tanh()), nn.Flatten(),
    nn.Dropout(0.2), nn.Softmax{dim = 1}, nn.Identity(), nn.Sigmoid())
  T.eq(tostring(net), table.concat({
    'Sequential(',
    '  (0): Linear(in_features=5, out_features=2, bias=True)',
    '  (1): ReLU()',
    '  (2): Sequential(',
    '    (0): Linear(in_features=2, out_features=2, bias=True)',
    '    (1): Tanh()',
    '  )',
    '  (3): Flatten(start_dim=1, end_dim=-1)',
    '  (4): Dropout(p=0.2, inplace=False)',
    '  (5): Softmax(dim=1)',
    '  (6): Identity()',
    '  (7): Sigmoid()',
    ')'}, '\n'))
  T.eq(tostring(nn.MSELoss()), 'MSELoss()')
  T.eq(tostring(nn.CrossEntropyLoss()), 'CrossEntropyLoss()')
  T.eq(tostring(nn.Dropout()), 'Dropout(p=0.5, inplace=False)')
  T.eq(tostring(nn.Softmax()), 'Softmax(dim=None)')
  T.eq(tostring(Model(5, 2)), 'Model(\n  (fc): Linear(in_features=5, out_features=2, bias=True)\n)')
  T.eq(tostring(nn.Module:extend('E')()), 'E()')
  T.eq(tostring(nn.DataParallel(Model(5, 2))),
    'DataParallel(\n  (module): Model(\n    (fc): Linear(in_features=5, out_features=2, bias=True)\n  )\n)')
  local Custom = nn.Module:extend('Custom')
  function Custom:extra_repr() return 'k=1' end
  T.eq(tostring(Custom()), 'Custom(k=1)')
end)

T.test('Linear init matches PyTorch after manual_seed(0)', function()
  torch.manual_seed(0)
  local l = nn.Linear(3, 1)
  T.close(l.weight, {{-0.004322517663240433, 0.3097158372402191, -0.4751853346824646}}, 1e-7)
  T.close(l.bias, {-0.4248946011066437}, 1e-7)
  T.eq(tostring(l.weight), 'Parameter containing:\ntensor([[-0.0043,  0.3097, -0.4752]], requires_grad=True)')
  -- draws go weight, bias, then the next layer
  torch.manual_seed(0)
  local s = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
  T.close(s[2].weight, {{0.021387115120887756, 0.22824688255786896, 0.34642332792282104},
                        {-0.3914094567298889, -0.25141456723213196, 0.2097034901380539}}, 1e-7)
  T.close(s[2].bias, {0.47942468523979187, -0.11881878226995468}, 1e-7)
  torch.manual_seed(0)
  local w = torch.empty(3, 4)
  T.eq(nn.init.xavier_uniform_(w), w)
  T.close(w[0], {-0.006931448820978403, 0.4966502785682678, -0.7619917392730713, -0.681347131729126}, 1e-7)
end)

T.test('attribute assignment registers parameters and modules', function()
  local M = nn.Module:extend('M')
  function M:__init()
    M.super.__init(self)
    self.fc = nn.Linear(2, 2)
    self.w = nn.Parameter(torch.ones(2))
    self.scale = 3
    self.t = torch.ones(1)  -- a plain tensor is not registered, as in PyTorch
  end
  function M:forward(x) return self.fc(x) * self.w * self.scale end
  local m = M()
  local names = {}
  for name, p in m:named_parameters() do names[#names + 1] = name end
  T.eq(table.concat(names, ','), 'w,fc.weight,fc.bias')
  T.eq(table.concat(m:state_dict():keys(), ','), 'w,fc.weight,fc.bias')
  T.eq(#m:parameters(), 3)
  T.eq(m:parameters()[2], m.fc.weight, 'parameters() gives the very tensors')
  T.eq(m.scale, 3)
  T.eq(#m:children(), 1)
  T.eq(#m:modules(), 2)
  T.eq(m:named_parameters()[1][1], 'w')
  T.raises(function() m.fc.weight = torch.ones(2, 2) end,
    "TypeError: cannot assign 'torch.FloatTensor' as parameter 'weight' (torch.nn.Parameter or None expected)")
  T.raises(function() m.fc = 3 end, "TypeError: cannot assign 'int' as child module 'fc' (torch.nn.Module or None expected)")
  T.eq(m(torch.ones(1, 2)).shape[1], 2)
end)

T.test('lists iterate in a generic for; named containers', function()
  local net = nn.Sequential(torch._util.OrderedDict{{'fc1', nn.Linear(2, 3)}, {'act', nn.ReLU()}})
  net:append(nn.Linear(3, 1))
  local shapes = {}
  for p in net:parameters() do shapes[#shapes + 1] = tostring(p.shape) end
  T.eq(table.concat(shapes, ' '), 'torch.Size([3, 2]) torch.Size([3]) torch.Size([1, 3]) torch.Size([1])')
  local names = {}
  for name in net:named_modules() do names[#names + 1] = '[' .. name .. ']' end
  T.eq(table.concat(names), '[][fc1][act][2]')
  names = {}
  for name, m in net:named_children() do names[#names + 1] = name .. '=' .. m:_get_name() end
  T.eq(table.concat(names, ' '), 'fc1=Linear act=ReLU 2=Linear')
  T.eq(net.fc1, net[0])
  T.eq(tostring(net), 'Sequential(\n  (fc1): Linear(in_features=2, out_features=3, bias=True)\n  (act): ReLU()\n'
    .. '  (2): Linear(in_features=3, out_features=1, bias=True)\n)')
  -- subclassing a layer
  local Scaled = nn.Linear:extend('Scaled')
  function Scaled:__init(i, o) Scaled.super.__init(self, i, o); self.s = nn.Parameter(torch.ones(1)) end
  function Scaled:forward(x) return nn.Linear.forward(self, x) * self.s end
  local sc = Scaled(3, 2)
  T.eq(tostring(sc), 'Scaled(in_features=3, out_features=2, bias=True)')
  T.eq(#sc:parameters(), 3)
  T.raises(function() nn.Linear(3, 2, {bais = false}) end,
    "TypeError: Linear.__init__() got an unexpected keyword argument 'bais'")
end)

T.test('forgetting the super __init still works', function()
  local Lazy = nn.Module:extend('Lazy')
  function Lazy:__init() self.fc = nn.Linear(2, 1) end
  function Lazy:forward(x) return self.fc(x) end
  local m = Lazy()
  T.eq(#m:parameters(), 2)
  T.eq(m.training, true)
  T.eq(tostring(m.fc(torch.ones(3, 2)).grad_fn):match('<(%w+)'), 'AddmmBackward0')
end)

T.test('missing forward', function()
  local N = nn.Module:extend('N')
  T.raises(function() N()(1) end, 'NotImplementedError: Module [N] is missing the required "forward" function')
end)

T.test('Sequential indexing and length', function()
  local s = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
  T.eq(#s, 3)
  T.eq(tostring(s[1]), 'ReLU()')
  T.eq(s[-1], s[2])
  T.raises(function() return s[5] end, 'IndexError: index 5 is out of range')
  T.raises(function() return s[-4] end, 'IndexError: index -4 is out of range')
  T.eq(s(torch.randn(5, 4)).shape[1], 2)
end)

T.test('Sequential slices keep the names, as net[1:3] in PyTorch', function()
  local s = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2), nn.Tanh())
  local mid = s['1:3']
  T.eq(tostring(mid), 'Sequential(\n  (1): ReLU()\n  (2): Linear(in_features=3, out_features=2, bias=True)\n)')
  T.eq(mid[1], s[2], 'the same module objects')
  T.eq(#s[':-1'], 3)
  T.eq(tostring(s['::2']), 'Sequential(\n  (0): Linear(in_features=4, out_features=3, bias=True)\n  (2): Linear('
    .. 'in_features=3, out_features=2, bias=True)\n)')
  T.eq(#s['::-1'], 4)
  T.eq(s['::-1'][0], s[3])
  T.eq(tostring(s['5:']), 'Sequential()')
end)

T.test('nn.init.eye_ and calculate_gain', function()
  local w = torch.empty(2, 3)
  T.eq(nn.init.eye_(w), w)
  T.close(w, {{1, 0, 0}, {0, 1, 0}})
  T.near(nn.init.calculate_gain('leaky_relu', 0.2), 1.3867504905630728, 1e-12)
  T.raises(function() nn.init.eye_(torch.empty(3)) end, 'ValueError: Only tensors with 2 dimensions are supported')
end)

T.test('state_dict order, values and detaching', function()
  local net = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
  local sd = net:state_dict()
  T.eq(#sd, 4)
  local keys = {}
  for k in pairs(sd) do keys[#keys + 1] = k end
  T.eq(table.concat(keys, ' '), '0.weight 0.bias 2.weight 2.bias')
  T.eq(sd['0.weight']:eq(net[0].weight):all():item(), true)
  T.eq(sd['0.weight'].requires_grad, false)
  T.truthy(tostring(sd):find("^OrderedDict%(%[%('0.weight', tensor%("), 'OrderedDict text')
end)

T.test('load_state_dict copies values and reports errors in PyTorch words', function()
  local a, b = Model(5, 2), Model(5, 2)
  T.eq(tostring(b:load_state_dict(a:state_dict())), '<All keys matched successfully>')
  T.eq(b.fc.weight:eq(a.fc.weight):all():item(), true)
  -- a DataParallel checkpoint into the plain model
  local dp_sd = nn.DataParallel(Model(5, 2)):state_dict()
  T.raises(function() a:load_state_dict(dp_sd) end, 'RuntimeError: Error(s) in loading state_dict for Model:\n'
    .. '\tMissing key(s) in state_dict: "fc.weight", "fc.bias". \n'
    .. '\tUnexpected key(s) in state_dict: "module.fc.weight", "module.fc.bias". ')
  local big = Model(5, 3):state_dict()
  T.raises(function() a:load_state_dict(big) end, 'RuntimeError: Error(s) in loading state_dict for Model:\n'
    .. '\tsize mismatch for fc.weight: copying a param with shape torch.Size([3, 5]) from checkpoint, the shape in '
    .. 'current model is torch.Size([2, 5]).\n'
    .. '\tsize mismatch for fc.bias: copying a param with shape torch.Size([3]) from checkpoint, the shape in current '
    .. 'model is torch.Size([2]).')
  T.raises(function() a:load_state_dict({['fc.weight'] = torch.zeros(3, 5)}) end,
    'RuntimeError: Error(s) in loading state_dict for Model:\n\tMissing key(s) in state_dict: "fc.bias". \n'
    .. '\tsize mismatch for fc.weight: copying a param with shape torch.Size([3, 5]) from checkpoint, the shape in '
    .. 'current model is torch.Size([2, 5]).')
  local r = a:load_state_dict({['fc.weight'] = torch.zeros(2, 5), x = torch.ones(1)}, {strict = false})
  T.eq(tostring(r), "_IncompatibleKeys(missing_keys=['fc.bias'], unexpected_keys=['x'])")
  T.eq(r.missing_keys[1], 'fc.bias')
  T.eq(a.fc.weight:sum():item(), 0.0)
  T.eq(tostring(a:load_state_dict(b:state_dict(), false)), '<All keys matched successfully>')
end)

T.test('to/cuda/cpu move parameters in place and return the module', function()
  local net = nn.Sequential(nn.Linear(3, 1))
  local w = net[0].weight
  net[0](torch.ones(2, 3)):sum():backward()
  T.eq(net:to('cuda:0'), net)
  T.eq(net[0].weight, w, 'same parameter object')
  T.eq(tostring(net[0].weight.data.device), 'cuda:0')
  T.eq(tostring(w.grad.device), 'cuda:0', 'grad moves too')
  T.eq(w.is_leaf, true)
  T.eq(w.requires_grad, true)
  T.eq(net:cuda(1), net)
  T.eq(tostring(w.device), 'cuda:1')
  T.eq(tostring(net(torch.ones(2, 3, {device = 'cuda:1'})).device), 'cuda:1')
  T.eq(net:cpu(), net)
  T.eq(tostring(w.device), 'cpu')
  T.eq(net:double(), net)
  T.eq(w.dtype, torch.float64)
  net:to(torch.device('cuda', 0), torch.float32)
  T.eq(tostring(w.device) .. ' ' .. tostring(w.dtype), 'cuda:0 torch.float32')
  T.raises(function() net:to(torch.int64) end,
    'TypeError: nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=torch.int64')
end)

T.test('train/eval, zero_grad, requires_grad_, apply', function()
  local net = nn.Sequential(nn.Linear(3, 3), nn.Dropout(0.5))
  T.eq(net:eval(), net)
  T.eq(net[1].training, false)
  local x = torch.ones(4, 3)
  T.eq(net[1](x), x, 'dropout in eval mode is the identity')
  net:train()
  T.eq(net[1].training, true)
  net(x):sum():backward()
  net:zero_grad(false)
  T.eq(net[0].weight.grad:abs():sum():item(), 0.0)
  net:zero_grad()
  T.eq(net[0].weight.grad, nil)
  net:requires_grad_(false)
  T.eq(net[0].bias.requires_grad, false)
  local seen = {}
  net:apply(function(m) seen[#seen + 1] = m:_get_name() end)
  T.eq(table.concat(seen, ','), 'Linear,Dropout,Sequential')
end)

T.test('no_grad and enable_grad restore the grad mode', function()
  local x = torch.ones(2, {requires_grad = true})
  local y = torch.no_grad(function(a) return a * 2 end, x)
  T.eq(y.requires_grad, false)
  T.eq(torch.is_grad_enabled(), true)
  T.raises(function() torch.no_grad(function() error('boom', 0) end) end, 'boom')
  T.eq(torch.is_grad_enabled(), true)
  do
    local _ <close> = torch.no_grad()
    T.eq(torch.is_grad_enabled(), false)
    T.eq(torch.enable_grad(function() return (x * 2).requires_grad end), true)
  end
  T.eq(torch.is_grad_enabled(), true)
end)

T.test('functional wrappers and losses', function()
  local F = nn.functional
  local x = torch.tensor({{-1.0, 2.0}})
  T.close(F.relu(x), {{0, 2}})
  T.close(F.softmax(x, 1), {{0.04742587, 0.95257413}}, 1e-6)
  T.close(nn.MSELoss()(torch.tensor({1.0, 2.0}), torch.tensor({0.0, 0.0})), 2.5)
  T.close(nn.MSELoss{reduction = 'sum'}(torch.tensor({1.0, 2.0}), torch.tensor({0.0, 0.0})), 5)
end)

T.test("state_dict views print as Python's odict views", function()
  -- python3 -c 'import torch; d = torch.nn.Linear(2, 1).state_dict(); print(d.keys())'
  local d = nn.Linear(2, 1):state_dict()
  T.eq(tostring(d:keys()), "odict_keys(['weight', 'bias'])")
  T.eq(tostring(d:values()):sub(1, 21), 'odict_values([tensor(')
  T.eq(tostring(d:items()):sub(1, 23), "odict_items([('weight',")
  local names = {}
  for k in d:keys() do names[#names + 1] = k end
  T.eq(table.concat(names, ' '), 'weight bias')
  local y = nn.Linear(2, 1)(torch.ones(1, 2))
  T.eq(y.grad_fn:name(), 'AddmmBackward0', 'grad_fn:name() is a method, as in PyTorch')
end)

-- Exact values: ATEN_CPU_CAPABILITY=default python3 -c 'import torch; torch.manual_seed(0);
--   w = torch.empty(2, 4); torch.nn.init.trunc_normal_(w); print([repr(v) for v in w.flatten().tolist()])' etc.
local function same_bits(t, want, what)
  local got = t:flatten():tolist()
  T.eq(#got, #want, what)
  for i = 1, #want do T.eq(got[i], want[i], ('%s [%d]'):format(what, i - 1)) end
end

T.test('nn.init.trunc_normal_ draws PyTorch 2.15\'s values bit for bit', function()
  torch.manual_seed(0)
  local w = torch.empty(2, 4)
  T.eq(nn.init.trunc_normal_(w), w)
  -- [a, b] holds > 30% of the mass: normal_ with the outliers redrawn
  same_bits(w, {1.5409960746765137, -0.293428897857666, -0.5966353416442871, 0.5684312582015991,
                -1.0845223665237427, -1.3985954523086548, 0.40334683656692505, 0.8380263447761536}, 'default')
  -- less mass: uniform_ on [a, b], accepted with probability pdf / peak
  torch.manual_seed(0)
  same_bits(nn.init.trunc_normal_(torch.empty(2, 4), {mean = 1, std = 0.5, a = 1.6, b = 3}),
            {1.647632122039795, 1.977766990661621, 1.7238683700561523, 1.7848427295684814, 2.0303919315338135,
             1.7635817527770996, 1.7605634927749634, 2.043471097946167}, 'acceptance branch')
  torch.manual_seed(0)
  same_bits(nn.init.trunc_normal_(torch.empty(2, 3, {dtype = torch.float64}), 0, 0.02, -0.01, 0.04),
            {0.030819922164880866, -0.0058685781152189274, 0.007407870667476306, 0.011368625545613355,
             0.018796198159070514, 0.0036407297012261107}, 'float64, positional')
  local big = nn.init.trunc_normal_(torch.empty(1000), {std = 3, a = -1, b = 0.5})
  T.truthy(big:min():item() >= -1 and big:max():item() <= 0.5, 'within [a, b]')
  local p = nn.Parameter(torch.empty(3, 3))
  T.eq(nn.init.trunc_normal_(p).grad_fn, nil, 'no graph on a parameter')
end)

-- Found by the seventh fuzz campaign (a timeout): with the mean far outside
-- [a, b], PyTorch's acceptance loop never ends; gpulab's stops with an error.
T.test('nn.init.trunc_normal_ with a mean far from [a, b] ends with an error, not a hang', function()
  T.raises(function() nn.init.trunc_normal_(torch.empty(3, {dtype = torch.float64}), 2 ^ 31) end,
           'RuntimeError: trunc_normal_: no value was accepted for some elements after 100000 rounds: the mean '
           .. '2147483648.0 is 2.15e+09 std from [a, b] = [-2.0, 2.0] (PyTorch would keep drawing forever); choose a '
           .. 'mean within a few std of [a, b]')
  torch.manual_seed(0)  -- 7 std away still draws PyTorch's values
  same_bits(nn.init.trunc_normal_(torch.empty(4), 5, 1, -2, 2),
            {1.6930584907531738, 1.6570987701416016, 1.8109524250030518, 1.9882662296295166}, 'mean 7 std away')
end)

T.test('nn.init.orthogonal_ matches PyTorch to LAPACK rounding', function()
  torch.manual_seed(0)
  local w = torch.empty(2, 4)
  T.eq(nn.init.orthogonal_(w), w)
  T.close(w, {{0.561532735824585, -0.10692428797483444, -0.7939420342445374, 0.20713403820991516},
              {-0.39059823751449585, -0.7681001424789429, -0.04086779057979584, 0.50575190782547}}, 1e-6)
  T.close(w:mm(w:t()), {{1, 0}, {0, 1}}, 1e-6, 'orthonormal rows')
  torch.manual_seed(0)
  local d = nn.init.orthogonal_(torch.empty(3, 2, {dtype = torch.float64}), {gain = 2})
  T.close(d, {{1.0699052595234497, -0.3398603047624914}, {-1.5127216784029978, 0.6803675647652258},
              {-0.7529779939239098, -1.8497553757354466}}, 1e-14)
  local c = nn.init.orthogonal_(torch.empty(8, 2, 3, 3))  -- trailing dims flattened: 8 x 18
  local f = c:view(8, 18)
  T.close(f:mm(f:t()), torch.eye(8):tolist(), 1e-5, 'conv weight rows orthonormal')
  local cw = nn.init.orthogonal_(torch.empty(6, 3, {device = 'cuda:1'}))
  T.eq(tostring(cw.device), 'cuda:1')
  T.close(cw:t():mm(cw), torch.eye(3):tolist(), 1e-5, 'on a CUDA device')
  T.raises(function() nn.init.orthogonal_(torch.empty(3)) end,
    'ValueError: Only tensors with 2 or more dimensions are supported')
end)

T.test('torch.linalg.qr: reduced, complete, r; PyTorch\'s values, shapes and strides', function()
  torch.manual_seed(0)
  local A = torch.randn(4, 3)
  local q, r = torch.linalg.qr(A)
  T.close(q, {{-0.8862802982330322, -0.029169868677854538, 0.2586618959903717},
              {-0.32692456245422363, -0.6629021763801575, -0.44125574827194214},
              {-0.23197877407073975, 0.6034563183784485, -0.7625250816345215},
              {0.23197685182094574, -0.44221067428588867, -0.3961603045463562}}, 1e-6)
  T.close(r, {{-1.7387230396270752, 0.2818073630332947, 2.597334146499634}, {0, 1.4970424175262451, 0.47614800930023193},
              {0, 0, 0.5299047231674194}}, 1e-6)
  T.eq(table.concat(q:stride(), ','), '1,4', 'column-major, as PyTorch')
  T.close(q:mm(r), A:tolist(), 1e-6, 'Q R = A')
  local qc, rc = torch.linalg.qr(A:double(), 'complete')
  T.eq(tostring(qc.shape) .. tostring(rc.shape), 'torch.Size([4, 4])torch.Size([4, 3])')
  T.close(qc:t():mm(qc), torch.eye(4):tolist(), 1e-12)
  T.close(qc:mm(rc), A:double():tolist(), 1e-12)
  local q0, r0 = torch.linalg.qr(A:t(), {mode = 'r'})
  T.eq(tostring(q0.shape) .. tostring(r0.shape), 'torch.Size([0])torch.Size([3, 4])')
  T.close(q:mm(r), A:tolist(), 1e-6, 'A:t() is column-major already: factored in a copy, A unchanged')
  local qb, rb = torch.linalg.qr(torch.randn(2, 5, 3, {device = 'cuda:2'}))
  T.eq(tostring(qb.shape) .. tostring(rb.shape) .. tostring(qb.device), 'torch.Size([2, 5, 3])torch.Size([2, 3, 3])cuda:2')
  local qe, re = torch.linalg.qr(torch.empty(3, 0), 'complete')
  T.eq(tostring(qe) .. ' ' .. tostring(re.shape), tostring(torch.eye(3)) .. ' torch.Size([3, 0])', 'no columns: Q = I')
  qe, re = torch.linalg.qr(torch.empty(3, 0))
  T.eq(tostring(qe.shape) .. tostring(re.shape), 'torch.Size([3, 0])torch.Size([0, 0])')
  T.raises(function() torch.linalg.qr(torch.ones(3)) end,
    'RuntimeError: linalg.qr: The input tensor A must have at least 2 dimensions.')
  T.raises(function() torch.linalg.qr(torch.ones(2, 2, {dtype = torch.int64})) end,
    'NotImplementedError: linalg.qr: Expected a floating point or complex tensor as input. Got Long')
  T.raises(function() torch.linalg.qr(A, 'x') end,
    "RuntimeError: qr received unrecognized mode 'x' but expected one of 'reduced' (default), 'r', or 'complete'")
  T.raises(function() torch.linalg.qr(torch.ones(2, 2, {requires_grad = true})) end, 'no backward yet', true)
end)

T.test('erf and erfinv: PyTorch\'s values (its CPU kernels are MKL\'s, within an ulp)', function()
  local x = torch.tensor({-1.0, -0.9, -0.5, 0.0, 0.3, 0.7, 0.99, 1.0, 1.5})
  local want = {-math.huge, -1.1630871295928955, -0.4769362807273865, 0.0, 0.27246272563934326, 0.7328690886497498,
                1.8213865756988525, math.huge}
  for _, dev in ipairs({'cpu', 'cuda:1'}) do
    local got = torch.erfinv(x:to(dev)):cpu():tolist()
    for i = 1, #want do T.eq(got[i], want[i], dev .. ' erfinv ' .. (i - 1)) end
    T.truthy(got[9] ~= got[9], 'erfinv(1.5) is nan')
    T.close(x:to(dev):erf(), {-0.8427007794380188, -0.7969081997871399, -0.5204998850822449, 0.0, 0.3286267817020416,
                              0.6778011918067932, 0.8385080695152283, 0.8427007794380188, 0.9661051630973816}, 6e-8)
  end
  T.close(torch.erfinv(torch.tensor({1, 0, -1})), {math.huge, 0, -math.huge}, 0, 'integers give float32')
  T.close(torch.erf(torch.erfinv(torch.linspace(-0.999, 0.999, 101, {dtype = torch.float64}))),
          torch.linspace(-0.999, 0.999, 101, {dtype = torch.float64}):tolist(), 1e-15, 'inverse')
  local y = torch.tensor({0.25, -0.5}):erfinv_()
  T.close(y, {0.22531205415725708, -0.4769362807273865}, 0)
end)

T.finish()
