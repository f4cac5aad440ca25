#!/usr/bin/env python3
# Needs torch (CPU build is enough). Writes tests/lua/data/conv_expected.lua:
# inputs, outputs and gradients of conv2d, pooling and normalisation computed
# by PyTorch, for tests/lua/test_nn_conv.lua to compare gpulab's against.
#   python3 tests/pytorch/gen_conv.py
import os
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1234)
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'lua', 'data', 'conv_expected.lua')


def lua(v):
    if isinstance(v, torch.Tensor):
        return '{' + ', '.join(repr(float(x)) for x in v.detach().reshape(-1).tolist()) + '}'
    if isinstance(v, bool):
        return 'true' if v else 'false'
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return '%r' % v
    if isinstance(v, (list, tuple)):
        return '{' + ', '.join(lua(x) for x in v) + '}'
    if isinstance(v, dict):
        return '{' + ', '.join('%s = %s' % (k, lua(x)) for k, x in v.items()) + '}'
    if v is None:
        return 'nil'
    raise TypeError(type(v))


def case(fn, shapes, kw, dtype=torch.float32):
    ins = [torch.randn(*s, dtype=dtype, requires_grad=True) for s in shapes]
    y = fn(*ins, **kw)
    g = torch.randn_like(y)
    (y * g).sum().backward()
    return {'shapes': [list(s) for s in shapes], 'inputs': [t for t in ins], 'kw': kw, 'out_shape': list(y.shape),
            'out': y, 'g': g, 'grads': [t.grad for t in ins], 'grad_fn': type(y.grad_fn).__name__,
            'double': dtype == torch.float64}


def conv(x, w, b=None, **kw):
    return F.conv2d(x, w, b, **kw)


conv_cases = [
    case(conv, [(2, 1, 6, 6), (3, 1, 3, 3), (3,)], {'padding': 1}),
    case(conv, [(2, 2, 7, 6), (4, 2, 3, 2)], {'stride': 2, 'padding': [1, 0]}),
    case(conv, [(1, 4, 7, 7), (4, 2, 3, 3), (4,)], {'dilation': 2, 'groups': 2}),
    case(conv, [(1, 2, 5, 5), (2, 2, 2, 4), (2,)], {'padding': 'same'}),
    case(conv, [(1, 2, 5, 6), (3, 2, 3, 3)], {'padding': 'valid', 'stride': [1, 2]}),
    case(conv, [(2, 5, 5), (3, 2, 3, 3), (3,)], {'padding': 2}),
    case(conv, [(2, 3, 6, 5), (4, 3, 3, 3), (4,)], {'padding': 1, 'stride': 2}, torch.float64),
]
pool_cases = [
    case(F.max_pool2d, [(2, 3, 6, 6)], {'kernel_size': 2}),
    case(F.max_pool2d, [(1, 2, 7, 7)], {'kernel_size': 3, 'stride': 2, 'padding': 1}),
    case(F.max_pool2d, [(1, 2, 6, 6)], {'kernel_size': 3, 'stride': 2, 'ceil_mode': True}),
    case(F.max_pool2d, [(1, 1, 7, 8)], {'kernel_size': [2, 3], 'stride': 1, 'dilation': 2}),
    case(F.max_pool2d, [(2, 5, 5)], {'kernel_size': 2}),
    case(F.avg_pool2d, [(2, 3, 6, 6)], {'kernel_size': 2}),
    case(F.avg_pool2d, [(1, 2, 7, 7)], {'kernel_size': 3, 'stride': 2, 'padding': 1, 'count_include_pad': False}),
    case(F.avg_pool2d, [(1, 2, 5, 6)], {'kernel_size': 3, 'stride': 1, 'padding': 1}),
    case(F.adaptive_avg_pool2d, [(2, 3, 7, 7)], {'output_size': [1, 1]}),
    case(F.adaptive_avg_pool2d, [(1, 2, 7, 5)], {'output_size': [3, 2]}),
    case(F.avg_pool2d, [(1, 2, 5, 5)], {'kernel_size': 2, 'ceil_mode': True}),
    case(F.avg_pool2d, [(1, 2, 5, 5)], {'kernel_size': 3, 'stride': 2, 'padding': 1, 'ceil_mode': True}),
    case(F.adaptive_avg_pool2d, [(2, 5, 5)], {'output_size': 3}),
]


def bn_train(x, w, b):
    rm, rv = torch.zeros(x.shape[1]), torch.ones(x.shape[1])
    y = F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.1, eps=1e-5)
    bn_train.stats = (rm, rv)
    return y


def bn_eval(x, w, b):
    rm, rv = torch.linspace(-0.5, 0.5, x.shape[1]), torch.linspace(0.5, 2.0, x.shape[1])
    return F.batch_norm(x, rm, rv, w, b, training=False, eps=1e-5)


norm_cases = []
for shape in [(4, 3, 5, 5), (6, 4), (3, 2, 5)]:
    c = case(bn_train, [shape, (shape[1],), (shape[1],)], {})
    c['running_mean'], c['running_var'] = bn_train.stats
    c['kind'] = 'bn_train'
    norm_cases.append(c)
c = case(bn_eval, [(4, 3, 5, 5), (3,), (3,)], {})
c['kind'] = 'bn_eval'
norm_cases.append(c)
for shape, ns in [((3, 4, 5), [5]), ((2, 3, 4), [3, 4])]:
    c = case(lambda x, w, b, ns=ns: F.layer_norm(x, ns, w, b, eps=1e-5), [shape, tuple(ns), tuple(ns)], {})
    c['kind'], c['normalized_shape'] = 'layer_norm', ns
    norm_cases.append(c)

# Default initialisation under a seed, and the printed form of each layer
# (the Lua expression that builds it, then PyTorch's repr).
torch.manual_seed(0)
conv_init = nn.Conv2d(2, 3, 3)
init = {'weight': conv_init.weight, 'bias': conv_init.bias}

reprs = [
    ("nn.Conv2d(1, 6, 5, {padding=2})", nn.Conv2d(1, 6, 5, padding=2)),
    ("nn.Conv2d(4, 6, {3, 5}, {stride=2, padding=1, dilation=2, groups=2, bias=false})",
     nn.Conv2d(4, 6, (3, 5), stride=2, padding=1, dilation=2, groups=2, bias=False)),
    ("nn.Conv2d(3, 3, 3, {padding='same'})", nn.Conv2d(3, 3, 3, padding='same')),
    ("nn.Conv2d(3, 3, 3, {padding='valid'})", nn.Conv2d(3, 3, 3, padding='valid')),
    ("nn.MaxPool2d(2)", nn.MaxPool2d(2)),
    ("nn.MaxPool2d({2, 3}, {stride=1, padding=1, ceil_mode=true})", nn.MaxPool2d((2, 3), stride=1, padding=1, ceil_mode=True)),
    ("nn.AvgPool2d(2)", nn.AvgPool2d(2)),
    ("nn.AvgPool2d(3, 2, 1, true, false)", nn.AvgPool2d(3, 2, 1, True, False)),
    ("nn.AdaptiveAvgPool2d({1, 1})", nn.AdaptiveAvgPool2d((1, 1))),
    ("nn.AdaptiveAvgPool2d(3)", nn.AdaptiveAvgPool2d(3)),
    ("nn.BatchNorm2d(6)", nn.BatchNorm2d(6)),
    ("nn.BatchNorm1d(120, {momentum=false, affine=false, track_running_stats=false})",
     nn.BatchNorm1d(120, momentum=None, affine=False, track_running_stats=False)),
    ("nn.BatchNorm2d(3, {eps=0.001, momentum=0.5})", nn.BatchNorm2d(3, eps=0.001, momentum=0.5)),
    ("nn.LayerNorm(4)", nn.LayerNorm(4)),
    ("nn.LayerNorm({3, 4}, {elementwise_affine=false, bias=false})", nn.LayerNorm((3, 4), elementwise_affine=False, bias=False)),
    ("nn.LayerNorm(3, {bias=false})", nn.LayerNorm(3, bias=False)),
    ("nn.LazyLinear(10)", nn.LazyLinear(10)),
    ("nn.LazyConv2d(6, 5, {padding=2})", nn.LazyConv2d(6, 5, padding=2)),
    ("nn.LazyBatchNorm2d()", nn.LazyBatchNorm2d()),
    ("nn.LazyBatchNorm1d()", nn.LazyBatchNorm1d()),
    ("nn.Flatten(0, 2)", nn.Flatten(0, 2)),
    ("nn.Sequential(nn.LazyConv2d(6, 5, {padding=2}), nn.Sigmoid(), nn.AvgPool2d(2, 2), nn.LazyLinear(10))",
     nn.Sequential(nn.LazyConv2d(6, 5, padding=2), nn.Sigmoid(), nn.AvgPool2d(2, 2), nn.LazyLinear(10))),
]

with open(OUT, 'w') as f:
    f.write('-- Generated by tests/pytorch/gen_conv.py from PyTorch %s; do not edit.\n' % torch.__version__.split('+')[0])
    f.write('return {\n')
    for name, cases in [('conv', conv_cases), ('pool', pool_cases), ('norm', norm_cases)]:
        f.write('  %s = {\n' % name)
        for c in cases:
            f.write('    %s,\n' % lua(c))
        f.write('  },\n')
    f.write('  init = %s,\n' % lua(init))
    f.write('  reprs = {\n')
    for expr, m in reprs:
        f.write('    {%s, %s},\n' % (lua(expr), lua(repr(m))))
    f.write('  },\n}\n')
print('wrote', OUT)
