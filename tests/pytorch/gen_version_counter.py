#!/usr/bin/env python3
# Needs torch (CPU build is enough). Writes tests/lua/data/version_counter_expected.lua:
# what PyTorch does when a tensor a backward needs was changed in place after
# the forward saved it (Note [Version counter]), and what anomaly detection adds
# (Note [Anomaly mode]), for tests/lua/test_version_counter.lua.
# Each case is a gpulab chunk and the same program in Python; both leave their
# answer in `result` (a string), or raise.
#   python3 tests/pytorch/gen_version_counter.py
import os
import torch
import torch.nn as nn
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lua', 'data', 'version_counter_expected.lua')

CASES = [
    ('a factor of a product, changed after the product',
     "local w = torch.ones(3, {requires_grad=true}); local x = torch.tensor({1., 2., 3.})\n"
     "local y = (w * x):sum(); x:add_(1); y:backward()",
     "w = torch.ones(3, requires_grad=True); x = torch.tensor([1., 2., 3.])\n"
     "y = (w * x).sum(); x.add_(1); y.backward()"),
    ('two writes count two',
     "local w = torch.ones(3, {requires_grad=true}); local x = torch.tensor({1., 2., 3.})\n"
     "local y = (w * x):sum(); x:add_(1); x:sub_(1); y:backward()",
     "w = torch.ones(3, requires_grad=True); x = torch.tensor([1., 2., 3.])\n"
     "y = (w * x).sum(); x.add_(1); x.sub_(1); y.backward()"),
    ('a saved output changed under no_grad names its node',
     "local w = torch.ones(3, {requires_grad=true}); local y = w:exp()\n"
     "torch.no_grad(function() y:mul_(2) end); y:sum():backward()",
     "w = torch.ones(3, requires_grad=True); y = w.exp()\n"
     "with torch.no_grad(): y.mul_(2)\n"
     "y.sum().backward()"),
    ("nn.Linear's input changed before backward",
     "torch.manual_seed(0); local net = nn.Linear(3, 2); local X = torch.randn(4, 3)\n"
     "local loss = net(X):sum(); X:mul_(2); loss:backward()",
     "torch.manual_seed(0); net = nn.Linear(3, 2); X = torch.randn(4, 3)\n"
     "loss = net(X).sum(); X.mul_(2); loss.backward()"),
    ("the optimizer's step between two backwards (a GAN's classic)",
     "torch.manual_seed(0); local net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))\n"
     "local opt = torch.optim.SGD(net:parameters(), {lr=0.1}); local X = torch.randn(4, 3)\n"
     "local loss = net(X):sum(); loss:backward({retain_graph=true}); opt:step(); loss:backward()",
     "torch.manual_seed(0); net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))\n"
     "opt = torch.optim.SGD(net.parameters(), lr=0.1); X = torch.randn(4, 3)\n"
     "loss = net(X).sum(); loss.backward(retain_graph=True); opt.step(); loss.backward()"),
    ('a view shares the count of its base',
     "local w = torch.ones(2, {requires_grad=true}); local x = torch.ones(4); local v = x:narrow(0, 1, 2)\n"
     "local y = (w * v):sum(); x:zero_(); y:backward()",
     "w = torch.ones(2, requires_grad=True); x = torch.ones(4); v = x.narrow(0, 1, 2)\n"
     "y = (w * v).sum(); x.zero_(); y.backward()"),
    ('detach() shares the count',
     "local w = torch.ones(3, {requires_grad=true}); local x = torch.tensor({1., 2., 3.})\n"
     "local y = (w * x):sum(); x:detach():add_(1); y:backward()",
     "w = torch.ones(3, requires_grad=True); x = torch.tensor([1., 2., 3.])\n"
     "y = (w * x).sum(); x.detach().add_(1); y.backward()"),
    ('an index assignment counts',
     "local w = torch.ones(3, {requires_grad=true}); local x = torch.tensor({1., 2., 3.})\n"
     "local y = (w * x):sum(); x[0] = 5; y:backward()",
     "w = torch.ones(3, requires_grad=True); x = torch.tensor([1., 2., 3.])\n"
     "y = (w * x).sum(); x[0] = 5; y.backward()"),
    ('out= counts',
     "local w = torch.ones(2, 3, {requires_grad=true}); local x = torch.ones(3, 4, {dtype=torch.float64})\n"
     "local y = w:double():matmul(x):sum(); torch.add(x, 1, {out=x}); y:backward()",
     "w = torch.ones(2, 3, requires_grad=True); x = torch.ones(3, 4, dtype=torch.float64)\n"
     "y = (w.double() @ x).sum(); torch.add(x, 1, out=x); y.backward()"),
    ("a convolution's weight changed under no_grad",
     "torch.manual_seed(0); local conv = nn.Conv2d(1, 2, 3); local x = torch.randn(1, 1, 5, 5, {requires_grad=true})\n"
     "local y = conv(x):sum(); torch.no_grad(function() conv.weight:add_(1) end); y:backward()",
     "torch.manual_seed(0); conv = nn.Conv2d(1, 2, 3); x = torch.randn(1, 1, 5, 5, requires_grad=True)\n"
     "y = conv(x).sum()\n"
     "with torch.no_grad(): conv.weight.add_(1)\n"
     "y.backward()"),
    ("a hidden activation changed: Linear names the node that made it",
     "torch.manual_seed(0); local l1, l2 = nn.Linear(3, 4), nn.Linear(4, 2); local X = torch.randn(5, 3)\n"
     "local h = torch.relu(l1(X)); local out = l2(h); torch.no_grad(function() h:mul_(2) end); out:sum():backward()",
     "torch.manual_seed(0); l1, l2 = nn.Linear(3, 4), nn.Linear(4, 2); X = torch.randn(5, 3)\n"
     "h = torch.relu(l1(X)); out = l2(h)\n"
     "with torch.no_grad(): h.mul_(2)\n"
     "out.sum().backward()"),
    ("... and so do Conv2d and BatchNorm1d, which keep copies",
     "torch.manual_seed(0); local c1, c2 = nn.Conv2d(1, 2, 3), nn.Conv2d(2, 2, 3); local X = torch.randn(1, 1, 7, 7)\n"
     "local h = torch.relu(c1(X)); local out = c2(h); torch.no_grad(function() h:mul_(2) end); out:sum():backward()",
     "torch.manual_seed(0); c1, c2 = nn.Conv2d(1, 2, 3), nn.Conv2d(2, 2, 3); X = torch.randn(1, 1, 7, 7)\n"
     "h = torch.relu(c1(X)); out = c2(h)\n"
     "with torch.no_grad(): h.mul_(2)\n"
     "out.sum().backward()"),
    ("... BatchNorm1d",
     "torch.manual_seed(0); local bn, l1 = nn.BatchNorm1d(4), nn.Linear(3, 4); local X = torch.randn(5, 3)\n"
     "local h = l1(X); local out = bn(h); torch.no_grad(function() h:mul_(2) end); out:sum():backward()",
     "torch.manual_seed(0); bn, l1 = nn.BatchNorm1d(4), nn.Linear(3, 4); X = torch.randn(5, 3)\n"
     "h = l1(X); out = bn(h)\n"
     "with torch.no_grad(): h.mul_(2)\n"
     "out.sum().backward()"),
    ("cross_entropy keeps its log_softmax, not the logits",
     "torch.manual_seed(0); local l1 = nn.Linear(3, 4); local X = torch.randn(5, 3); local t = torch.tensor({0, 1, 2, 3, 0})\n"
     "local h = l1(X); local loss = F.cross_entropy(h, t); torch.no_grad(function() h:mul_(2) end); loss:backward()\n"
     "result = tostring(l1.bias.grad)",
     "torch.manual_seed(0); l1 = nn.Linear(3, 4); X = torch.randn(5, 3); t = torch.tensor([0, 1, 2, 3, 0])\n"
     "h = l1(X); loss = F.cross_entropy(h, t)\n"
     "with torch.no_grad(): h.mul_(2)\n"
     "loss.backward(); result = str(l1.bias.grad)"),
    ("a loss's target changed",
     "local p = torch.zeros(4, {requires_grad=true}); local t = torch.ones(4)\n"
     "local loss = F.mse_loss(p, t); t:add_(1); loss:backward()",
     "p = torch.zeros(4, requires_grad=True); t = torch.ones(4)\n"
     "loss = F.mse_loss(p, t); t.add_(1); loss.backward()"),
    ("max's indices changed",
     "local x = torch.tensor({{1., 5.}, {7., 2.}}, {requires_grad=true}); local v, i = x:max(1)\n"
     "i:zero_(); v:sum():backward()",
     "x = torch.tensor([[1., 5.], [7., 2.]], requires_grad=True); v, i = x.max(1)\n"
     "i.zero_(); v.sum().backward()"),
    ("a custom Function's saved input",
     "local Cube = torch.autograd.Function:extend('Cube')\n"
     "function Cube.forward(ctx, x) ctx:save_for_backward(x); return x ^ 3 end\n"
     "function Cube.backward(ctx, g) return g * 3 * ctx.saved_tensors[1] ^ 2 end\n"
     "local x = torch.ones(3, {requires_grad=true}); local y = Cube.apply(x)\n"
     "torch.no_grad(function() x:add_(1) end); y:sum():backward()",
     "class Cube(torch.autograd.Function):\n"
     "    @staticmethod\n"
     "    def forward(ctx, x): ctx.save_for_backward(x); return x ** 3\n"
     "    @staticmethod\n"
     "    def backward(ctx, g): return g * 3 * ctx.saved_tensors[0] ** 2\n"
     "x = torch.ones(3, requires_grad=True); y = Cube.apply(x)\n"
     "with torch.no_grad(): x.add_(1)\n"
     "y.sum().backward()"),
    ("a custom Function's saved output",
     "local Exp = torch.autograd.Function:extend('Exp')\n"
     "function Exp.forward(ctx, x) local r = x:exp(); ctx:save_for_backward(r); return r end\n"
     "function Exp.backward(ctx, g) return g * ctx.saved_tensors[1] end\n"
     "local x = torch.ones(3, {requires_grad=true}); local y = Exp.apply(x)\n"
     "torch.no_grad(function() y:mul_(2) end); y:sum():backward()",
     "class Exp(torch.autograd.Function):\n"
     "    @staticmethod\n"
     "    def forward(ctx, x): r = x.exp(); ctx.save_for_backward(r); return r\n"
     "    @staticmethod\n"
     "    def backward(ctx, g): return g * ctx.saved_tensors[0]\n"
     "x = torch.ones(3, requires_grad=True); y = Exp.apply(x)\n"
     "with torch.no_grad(): y.mul_(2)\n"
     "y.sum().backward()"),
    # anomaly detection (Note [Anomaly mode]): its hint, and its NaN checks
    ('with anomaly detection on, the hint points above',
     "torch.autograd.set_detect_anomaly(true)\n"
     "local w = torch.ones(3, {requires_grad=true}); local x = torch.tensor({1., 2., 3.})\n"
     "local y = (w * x):sum(); x:add_(1); y:backward()",
     "torch.autograd.set_detect_anomaly(True)\n"
     "w = torch.ones(3, requires_grad=True); x = torch.tensor([1., 2., 3.])\n"
     "y = (w * x).sum(); x.add_(1); y.backward()"),
    ("a NaN in a gradient's second output",
     "torch.autograd.set_detect_anomaly(true)\n"
     "local z = torch.zeros(3, {requires_grad=true}); (z / z):sum():backward()",
     "torch.autograd.set_detect_anomaly(True)\n"
     "z = torch.zeros(3, requires_grad=True); (z / z).sum().backward()"),
    ("a NaN in a gradient's first output",
     "torch.autograd.detect_anomaly(function()\n"
     "  local x = torch.tensor({-1., 4.}, {requires_grad=true}); x:sqrt():sum():backward() end)",
     "with torch.autograd.detect_anomaly():\n"
     "    x = torch.tensor([-1., 4.], requires_grad=True); x.sqrt().sum().backward()"),
    ('check_nan=false lets NaN through',
     "torch.autograd.set_detect_anomaly(true, {check_nan=false})\n"
     "local z = torch.zeros(3, {requires_grad=true}); (z / z):sum():backward()\n"
     "result = tostring(z.grad) .. ' ' .. tostring(torch.is_anomaly_enabled()) .. ' ' .. tostring(torch.is_anomaly_check_nan_enabled())",
     "torch.autograd.set_detect_anomaly(True, check_nan=False)\n"
     "z = torch.zeros(3, requires_grad=True); (z / z).sum().backward()\n"
     "result = str(z.grad) + ' ' + str(torch.is_anomaly_enabled()).lower() + ' ' + str(torch.is_anomaly_check_nan_enabled()).lower()"),
    # no error where PyTorch saved nothing that changed
    ('a sum saves no input',
     "local w = torch.ones(3, {requires_grad=true}); local x = torch.tensor({1., 2., 3.})\n"
     "local y = (w + x):sum(); x:add_(1); y:backward(); result = tostring(w.grad)",
     "w = torch.ones(3, requires_grad=True); x = torch.tensor([1., 2., 3.])\n"
     "y = (w + x).sum(); x.add_(1); y.backward(); result = str(w.grad)"),
    ('writes through .data are not counted',
     "local w = torch.ones(3, {requires_grad=true}); local x = torch.tensor({1., 2., 3.})\n"
     "local y = (w * x):sum(); x.data:add_(1); y:backward(); result = tostring(w.grad)",
     "w = torch.ones(3, requires_grad=True); x = torch.tensor([1., 2., 3.])\n"
     "y = (w * x).sum(); x.data.add_(1); y.backward(); result = str(w.grad)"),
    ("sigmoid saves its output, not its input",
     "local w = torch.ones(3, {requires_grad=true}); local z = w:sigmoid() * 2\n"
     "torch.no_grad(function() w:add_(1) end); z:sum():backward(); result = tostring(w.grad)",
     "w = torch.ones(3, requires_grad=True); z = w.sigmoid() * 2\n"
     "with torch.no_grad(): w.add_(1)\n"
     "z.sum().backward(); result = str(w.grad)"),
    ("a product whose other factor needs no gradient keeps only that factor",
     "local w = torch.ones(3, {requires_grad=true}); local x = torch.tensor({1., 2., 3.}); local y = (w * x):sum()\n"
     "torch.no_grad(function() w:mul_(5) end); y:backward(); result = tostring(w.grad)",
     "w = torch.ones(3, requires_grad=True); x = torch.tensor([1., 2., 3.]); y = (w * x).sum()\n"
     "with torch.no_grad(): w.mul_(5)\n"
     "y.backward(); result = str(w.grad)"),
    ('ReLU(inplace) after a layer',
     "torch.manual_seed(0); local net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(true), nn.Linear(4, 1))\n"
     "net(torch.randn(2, 3)):sum():backward(); result = tostring(net[0].bias.grad)",
     "torch.manual_seed(0); net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(True), nn.Linear(4, 1))\n"
     "net(torch.randn(2, 3)).sum().backward(); result = str(net[0].bias.grad)"),
    ('the versions of new tensors, parameters and in-place ops',
     "local a = torch.ones(3); local v0 = a._version; a:add_(1); a:mul_(2); a[0] = 1; a:zero_()\n"
     "local l = nn.Linear(3, 2); local v1 = l.weight._version\n"
     "local opt = torch.optim.SGD(l:parameters(), {lr=0.1}); l(torch.randn(2, 3)):sum():backward(); opt:step()\n"
     "result = ('%d %d %d %d %d'):format(v0, a._version, v1, l.weight._version, torch.cat({a, a})._version)",
     "a = torch.ones(3); v0 = a._version; a.add_(1); a.mul_(2); a[0] = 1; a.zero_()\n"
     "l = nn.Linear(3, 2); v1 = l.weight._version\n"
     "opt = torch.optim.SGD(l.parameters(), lr=0.1); l(torch.randn(2, 3)).sum().backward(); opt.step()\n"
     "result = '%d %d %d %d %d' % (v0, a._version, v1, l.weight._version, torch.cat([a, a])._version)"),
]


def run(py):
    env = {'torch': torch, 'nn': nn, 'F': F}
    try:
        exec(py, env)  # noqa: S102 - the case's own program
        return env.get('result', 'ok')
    except Exception as e:  # noqa: BLE001 - the error text is the expected value
        return f'{type(e).__name__}: {e}'
    finally:
        torch.autograd.set_detect_anomaly(False)


def lua_str(s):
    return "'" + s.replace('\\', '\\\\').replace("'", "\\'").replace('\n', '\\n') + "'"


with open(OUT, 'w') as f:
    f.write(f'-- Generated by tests/pytorch/gen_version_counter.py (PyTorch {torch.__version__.split("+")[0]}, CPU):\n')
    f.write('-- {what it checks, gpulab chunk, what PyTorch gives}\n')
    f.write('return {\n')
    for what, lua, py in CASES:
        f.write(f'  {{{lua_str(what)}, {lua_str(lua)}, {lua_str(run(py))}}},\n')
    f.write('}\n')
print(f'wrote {len(CASES)} cases to {OUT}')
