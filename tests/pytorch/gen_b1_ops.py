#!/usr/bin/env python3
"""Expected values for tests/lua/test_b1_*.lua, from a real PyTorch (needs torch, CPU is enough).

Each case is a pair: PyTorch code and the gpulab Lua code meant to print the same. The script runs
the Python side (with DEV = 'cpu') and writes what str() gives, or "ErrorType: message" when it
raises, into tests/lua/b1_ops_expected.lua. The Lua tests run the Lua side on the CPU and compare
the text, then on a virtual CUDA device and compare with the CPU's result.

    python3 tests/pytorch/gen_b1_ops.py      # rewrites tests/lua/b1_ops_expected.lua
"""
import os
import sys

import torch

DEV = 'cpu'

# (name, python expression or statements ending in an expression `out`, lua chunk returning the value)
# In both, DEV names the device. A python value that is a tuple/list is printed item by item.
RANDOM = [
    # generators: their own stream, PyTorch's numbers
    ('gen_rand', "g = torch.Generator().manual_seed(7); out = torch.rand(3, generator=g, device=DEV)",
     "local g = torch.Generator():manual_seed(7); return torch.rand(3, {generator=g, device=DEV})"),
    ('gen_randn_small', "g = torch.Generator().manual_seed(1); out = torch.randn(5, generator=g, device=DEV)",
     "local g = torch.Generator():manual_seed(1); return torch.randn(5, {generator=g, device=DEV})"),
    ('gen_randn_large', "g = torch.Generator().manual_seed(2); out = torch.randn(2, 10, generator=g, device=DEV)",
     "local g = torch.Generator():manual_seed(2); return torch.randn(2, 10, {generator=g, device=DEV})"),
    # Note [PyTorch's vector Box-Muller]: 16 or more float32/half/bfloat16 normals come from
    # avx_mathfun's Cephes log and sincos on an AVX2 CPU; every bit checked (a sum of the bit patterns)
    ('randn_avx2_bits', "torch.manual_seed(11); x = torch.randn(4099, device=DEV); out = (int(x.view(torch.int32).to(torch.int64).sum()), x[:4])",
     "torch.manual_seed(11); local x = torch.randn(4099, {device=DEV}); local b, s = x:cpu():tobytes(), 0; for i = 1, #b, 4 do s = s + string.unpack('<i4', b, i) end; return {s, x[':4']}"),
    ('normal_avx2_bits', "torch.manual_seed(12); x = torch.normal(2., 3., size=(37, 29), device=DEV); out = int(x.view(torch.int32).to(torch.int64).sum())",
     "torch.manual_seed(12); local x = torch.normal(2., 3., {37, 29}, {device=DEV}); local b, s = x:cpu():tobytes(), 0; for i = 1, #b, 4 do s = s + string.unpack('<i4', b, i) end; return s"),
    ('randn_half_avx2_bits', "torch.manual_seed(13); x = torch.randn(1000, dtype=torch.float16, device=DEV); out = int(x.view(torch.int16).to(torch.int64).sum())",
     "torch.manual_seed(13); local x = torch.randn(1000, {dtype=torch.float16, device=DEV}); local b, s = x:cpu():tobytes(), 0; for i = 1, #b, 2 do s = s + string.unpack('<i2', b, i) end; return s"),
    # uniform_: x * (to - from) + from is one fused multiply-add on an AVX2 CPU; a value that
    # rounds to `to` is `from` (uniform_'s range is [from, to))
    ('uniform_avx2_bits', "torch.manual_seed(14); x = torch.empty(4099, device=DEV).uniform_(-2, 3); out = int(x.view(torch.int32).to(torch.int64).sum())",
     "torch.manual_seed(14); local x = torch.empty(4099, {device=DEV}):uniform_(-2, 3); local b, s = x:cpu():tobytes(), 0; for i = 1, #b, 4 do s = s + string.unpack('<i4', b, i) end; return s"),
    ('uniform_avx2_never_to', "torch.manual_seed(0); out = torch.empty(10000, dtype=torch.float16, device=DEV).uniform_(1.0, 1.002).unique(return_counts=True)",
     "torch.manual_seed(0); return {torch.unique(torch.empty(10000, {dtype=torch.float16, device=DEV}):uniform_(1.0, 1.002), {return_counts=true})}"),
    ('uniform_avx2_bf16_bits', "torch.manual_seed(0); x = torch.empty(999, dtype=torch.bfloat16, device=DEV).uniform_(-2, 3.3); out = int(x.view(torch.int16).to(torch.int64).sum())",
     "torch.manual_seed(0); local x = torch.empty(999, {dtype=torch.bfloat16, device=DEV}):uniform_(-2, 3.3); local b, s = x:cpu():tobytes(), 0; for i = 1, #b, 2 do s = s + string.unpack('<i2', b, i) end; return s"),
    ('gen_randint', "g = torch.Generator().manual_seed(3); out = torch.randint(0, 10, (6,), generator=g, device=DEV)",
     "local g = torch.Generator():manual_seed(3); return torch.randint(0, 10, {6}, {generator=g, device=DEV})"),
    ('gen_randperm', "g = torch.Generator().manual_seed(4); out = torch.randperm(8, generator=g, device=DEV)",
     "local g = torch.Generator():manual_seed(4); return torch.randperm(8, {generator=g, device=DEV})"),
    ('gen_default_untouched', "torch.manual_seed(0); g = torch.Generator(DEV).manual_seed(5); torch.rand(4, generator=g, device=DEV); out = torch.rand(2, device=DEV)",
     "torch.manual_seed(0); local g = torch.Generator(DEV):manual_seed(5); torch.rand(4, {generator=g, device=DEV}); return torch.rand(2, {device=DEV})"),
    ('gen_uniform_', "g = torch.Generator().manual_seed(6); out = torch.empty(4, device=DEV).uniform_(-2, 2, generator=g)",
     "local g = torch.Generator():manual_seed(6); return torch.empty(4, {device=DEV}):uniform_(-2, 2, {generator=g})"),
    ('gen_normal_', "g = torch.Generator().manual_seed(8); out = torch.empty(3, device=DEV).normal_(1, 0.5, generator=g)",
     "local g = torch.Generator():manual_seed(8); return torch.empty(3, {device=DEV}):normal_(1, 0.5, {generator=g})"),
    ('gen_initial_seed', "g = torch.Generator().manual_seed(42); out = torch.tensor(g.initial_seed())",
     "local g = torch.Generator():manual_seed(42); return torch.tensor(g:initial_seed())"),
    ('gen_default_seed', "out = torch.tensor(torch.Generator().initial_seed())",
     "return torch.tensor(torch.Generator():initial_seed())"),
    ('torch_initial_seed', "torch.manual_seed(123); out = torch.tensor(torch.initial_seed())",
     "torch.manual_seed(123); return torch.tensor(torch.initial_seed())"),
    ('gen_state_roundtrip', "g = torch.Generator().manual_seed(9); torch.rand(5, generator=g); s = g.get_state(); a = torch.rand(3, generator=g); g.set_state(s); out = (a, torch.rand(3, generator=g))",
     "local g = torch.Generator():manual_seed(9); torch.rand(5, {generator=g}); local s = g:get_state(); local a = torch.rand(3, {generator=g}); g:set_state(s); return {a, torch.rand(3, {generator=g})}"),
    ('gen_state_bytes', "g = torch.Generator().manual_seed(10); torch.rand(700, generator=g); torch.randn(1, generator=g); s = g.get_state(); out = (s.shape, s[:40], s[-48:], s.sum())",
     "local g = torch.Generator():manual_seed(10); torch.rand(700, {generator=g}); torch.randn(1, {generator=g}); local s = g:get_state(); return {s.shape, s[':40'], s['-48:'], s:sum()}"),
    ('gen_state_fresh', "s = torch.Generator().manual_seed(11).get_state(); out = (s[:40], s.sum())",
     "local s = torch.Generator():manual_seed(11):get_state(); return {s[':40'], s:sum()}"),
    ('gen_state_from_pytorch', "g = torch.Generator().manual_seed(12); torch.rand(100, generator=g); s = g.get_state(); g2 = torch.Generator(); g2.set_state(s); out = torch.rand(3, generator=g2)",
     "local g = torch.Generator():manual_seed(12); torch.rand(100, {generator=g}); local g2 = torch.Generator(); g2:set_state(g:get_state()); return torch.rand(3, {generator=g2})"),
    ('rng_state', "torch.manual_seed(3); torch.randn(3); s = torch.get_rng_state(); a = torch.rand(2); torch.set_rng_state(s); out = (s[:40], s[-48:], a, torch.rand(2))",
     "torch.manual_seed(3); torch.randn(3); local s = torch.get_rng_state(); local a = torch.rand(2); torch.set_rng_state(s); return {s[':40'], s['-48:'], a, torch.rand(2)}"),
    ('gen_bad_state_size', "torch.Generator().set_state(torch.zeros(3, dtype=torch.uint8))",
     "return torch.Generator():set_state(torch.zeros(3, {dtype=torch.uint8}))"),
    ('gen_bad_state_dtype', "torch.Generator().set_state(torch.zeros(5056))",
     "return torch.Generator():set_state(torch.zeros(5056))"),
    # float16/bfloat16: rand rounds a 24-bit float draw; randn and normal of 16 or more
    # elements draw 16 float uniforms per block (a partial last block from 16 fresh draws)
    ('half_rand_randn', "torch.manual_seed(0); out = [f(n, dtype=d, device=DEV) for d in (torch.float16, torch.bfloat16) for n in (5, 20, 33) for f in (torch.rand, torch.randn)]",
     "torch.manual_seed(0); local r = {}; for _, d in ipairs({torch.float16, torch.bfloat16}) do for _, n in ipairs({5, 20, 33}) do r[#r + 1] = torch.rand(n, {dtype=d, device=DEV}); r[#r + 1] = torch.randn(n, {dtype=d, device=DEV}) end end; return r"),
    ('half_normal', "torch.manual_seed(3); out = [torch.normal(2., 3., (40,), dtype=d, device=DEV) for d in (torch.float16, torch.bfloat16)]",
     "torch.manual_seed(3); return {torch.normal(2., 3., {40}, {dtype=torch.float16, device=DEV}), torch.normal(2., 3., {40}, {dtype=torch.bfloat16, device=DEV})}"),
    ('gen_dtypes', "g = torch.Generator(DEV).manual_seed(13); out = [f(d) for d in (torch.float16, torch.bfloat16, torch.float64) for f in (lambda d: torch.randn(3, generator=g, dtype=d, device=DEV), lambda d: torch.empty(2, dtype=d, device=DEV).exponential_(generator=g), lambda d: torch.normal(torch.zeros(2, dtype=d, device=DEV), 1., generator=g))]",
     "local g = torch.Generator(DEV):manual_seed(13); local r = {}; for _, d in ipairs({torch.float16, torch.bfloat16, torch.float64}) do r[#r + 1] = torch.randn(3, {generator=g, dtype=d, device=DEV}); r[#r + 1] = torch.empty(2, {dtype=d, device=DEV}):exponential_({generator=g}); r[#r + 1] = torch.normal(torch.zeros(2, {dtype=d, device=DEV}), 1., {generator=g}) end; return r"),
    # normal in all its forms
    ('normal_ff', "torch.manual_seed(0); out = torch.normal(2., 3., (4,), device=DEV)",
     "torch.manual_seed(0); return torch.normal(2., 3., {4}, {device=DEV})"),
    ('normal_ff_large', "torch.manual_seed(0); out = torch.normal(0., 1., size=(2, 9), device=DEV)",
     "torch.manual_seed(0); return torch.normal(0., 1., {size={2, 9}, device=DEV})"),
    ('normal_tt', "torch.manual_seed(1); out = torch.normal(torch.arange(4., device=DEV), torch.tensor([1., 2., 3., 4.], device=DEV))",
     "torch.manual_seed(1); return torch.normal(torch.arange(4., {device=DEV}), torch.tensor({1., 2., 3., 4.}, {device=DEV}))"),
    ('normal_tt_broadcast', "torch.manual_seed(1); out = torch.normal(torch.zeros(2, 1, device=DEV), torch.ones(3, device=DEV))",
     "torch.manual_seed(1); return torch.normal(torch.zeros(2, 1, {device=DEV}), torch.ones(3, {device=DEV}))"),
    ('normal_tf', "torch.manual_seed(2); out = torch.normal(torch.ones(3, dtype=torch.float64, device=DEV), 0.5)",
     "torch.manual_seed(2); return torch.normal(torch.ones(3, {dtype=torch.float64, device=DEV}), 0.5)"),
    ('normal_t_default_std', "torch.manual_seed(2); out = torch.normal(torch.ones(3, device=DEV))",
     "torch.manual_seed(2); return torch.normal(torch.ones(3, {device=DEV}))"),
    ('normal_ft', "torch.manual_seed(3); out = torch.normal(1.0, torch.full((17,), 2.0, device=DEV))",
     "torch.manual_seed(3); return torch.normal(1.0, torch.full({17}, 2.0, {device=DEV}))"),
    ('normal_gen', "g = torch.Generator().manual_seed(4); out = torch.normal(0., 1., (3,), generator=g)",
     "local g = torch.Generator():manual_seed(4); return torch.normal(0., 1., {3}, {generator=g})"),
    ('normal_grad', "m = torch.zeros(2, requires_grad=True); s = torch.ones(2, requires_grad=True); y = torch.normal(m, s); y.sum().backward(); out = (y.grad_fn.name(), m.grad, s.grad, torch.normal(m, 1.).grad_fn.name(), torch.normal(0., s).grad_fn.name())",
     "local m = torch.zeros(2, {requires_grad=true}); local s = torch.ones(2, {requires_grad=true}); local y = torch.normal(m, s); y:sum():backward(); return {y.grad_fn:name(), m.grad, s.grad, torch.normal(m, 1.).grad_fn:name(), torch.normal(0., s).grad_fn:name()}"),
    ('normal_neg_std', "torch.normal(torch.zeros(2), -1.)", "return torch.normal(torch.zeros(2), -1.)"),
    ('normal_neg_std_t', "torch.normal(torch.zeros(2), torch.tensor([1., -1.]))", "return torch.normal(torch.zeros(2), torch.tensor({1., -1.}))"),
    ('normal_long', "torch.normal(torch.zeros(2, dtype=torch.int64), 1.)", "return torch.normal(torch.zeros(2, {dtype=torch.int64}), 1.)"),
    ('normal_bad_shapes', "torch.normal(torch.zeros(2), torch.ones(3))", "return torch.normal(torch.zeros(2), torch.ones(3))"),
    # bernoulli
    ('bernoulli_t', "torch.manual_seed(0); out = torch.bernoulli(torch.tensor([0., 0.2, 0.5, 0.8, 1., 0.5], device=DEV))",
     "torch.manual_seed(0); return torch.bernoulli(torch.tensor({0., 0.2, 0.5, 0.8, 1., 0.5}, {device=DEV}))"),
    ('bernoulli_t64', "torch.manual_seed(0); out = torch.bernoulli(torch.full((2, 4), 0.5, dtype=torch.float64, device=DEV))",
     "torch.manual_seed(0); return torch.bernoulli(torch.full({2, 4}, 0.5, {dtype=torch.float64, device=DEV}))"),
    # lr schedulers: get_last_lr() over 10 steps, to the last bit (Python's float repr), two groups
    ('sched_step', "o = torch.optim.SGD([{'params': [torch.nn.Parameter(torch.ones(1))]}, {'params': [torch.nn.Parameter(torch.ones(1))], 'lr': 0.5}], lr=0.1); s = torch.optim.lr_scheduler.StepLR(o, 2, gamma=0.5); out = [(' '.join(repr(v) for v in s.get_last_lr()), o.step(), s.step())[0] for _ in range(10)]",
     "local o = torch.optim.SGD({{params = {nn.Parameter(torch.ones(1))}}, {params = {nn.Parameter(torch.ones(1))}, lr = 0.5}}, {lr = 0.1}); local s = torch.optim.lr_scheduler.StepLR(o, 2, {gamma=0.5}); local r = {}; for i = 1, 10 do local l = s:get_last_lr(); r[i] = repr(l[1]) .. ' ' .. repr(l[2]); o:step(); s:step() end; return r"),
    ('sched_multistep', "o = torch.optim.SGD([{'params': [torch.nn.Parameter(torch.ones(1))]}, {'params': [torch.nn.Parameter(torch.ones(1))], 'lr': 0.5}], lr=0.1); s = torch.optim.lr_scheduler.MultiStepLR(o, [1, 3, 3], 0.1); out = [(' '.join(repr(v) for v in s.get_last_lr()), o.step(), s.step())[0] for _ in range(10)]",
     "local o = torch.optim.SGD({{params = {nn.Parameter(torch.ones(1))}}, {params = {nn.Parameter(torch.ones(1))}, lr = 0.5}}, {lr = 0.1}); local s = torch.optim.lr_scheduler.MultiStepLR(o, {1, 3, 3}, 0.1); local r = {}; for i = 1, 10 do local l = s:get_last_lr(); r[i] = repr(l[1]) .. ' ' .. repr(l[2]); o:step(); s:step() end; return r"),
    ('sched_exponential', "o = torch.optim.SGD([{'params': [torch.nn.Parameter(torch.ones(1))]}, {'params': [torch.nn.Parameter(torch.ones(1))], 'lr': 0.5}], lr=0.1); s = torch.optim.lr_scheduler.ExponentialLR(o, 0.9); out = [(' '.join(repr(v) for v in s.get_last_lr()), o.step(), s.step())[0] for _ in range(10)]",
     "local o = torch.optim.SGD({{params = {nn.Parameter(torch.ones(1))}}, {params = {nn.Parameter(torch.ones(1))}, lr = 0.5}}, {lr = 0.1}); local s = torch.optim.lr_scheduler.ExponentialLR(o, 0.9); local r = {}; for i = 1, 10 do local l = s:get_last_lr(); r[i] = repr(l[1]) .. ' ' .. repr(l[2]); o:step(); s:step() end; return r"),
    ('sched_lambda', "o = torch.optim.SGD([{'params': [torch.nn.Parameter(torch.ones(1))]}, {'params': [torch.nn.Parameter(torch.ones(1))], 'lr': 0.5}], lr=0.1); s = torch.optim.lr_scheduler.LambdaLR(o, lambda e: 1 / (e + 1)); out = [(' '.join(repr(v) for v in s.get_last_lr()), o.step(), s.step())[0] for _ in range(10)]",
     "local o = torch.optim.SGD({{params = {nn.Parameter(torch.ones(1))}}, {params = {nn.Parameter(torch.ones(1))}, lr = 0.5}}, {lr = 0.1}); local s = torch.optim.lr_scheduler.LambdaLR(o, function(e) return 1 / (e + 1) end); local r = {}; for i = 1, 10 do local l = s:get_last_lr(); r[i] = repr(l[1]) .. ' ' .. repr(l[2]); o:step(); s:step() end; return r"),
    ('sched_cosine', "o = torch.optim.SGD([{'params': [torch.nn.Parameter(torch.ones(1))]}, {'params': [torch.nn.Parameter(torch.ones(1))], 'lr': 0.5}], lr=0.1); s = torch.optim.lr_scheduler.CosineAnnealingLR(o, 3, eta_min=0.01); out = [(' '.join(repr(v) for v in s.get_last_lr()), o.step(), s.step())[0] for _ in range(10)]",
     "local o = torch.optim.SGD({{params = {nn.Parameter(torch.ones(1))}}, {params = {nn.Parameter(torch.ones(1))}, lr = 0.5}}, {lr = 0.1}); local s = torch.optim.lr_scheduler.CosineAnnealingLR(o, 3, {eta_min=0.01}); local r = {}; for i = 1, 10 do local l = s:get_last_lr(); r[i] = repr(l[1]) .. ' ' .. repr(l[2]); o:step(); s:step() end; return r"),
    ('sched_print', "o = torch.optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=0.1); s = torch.optim.lr_scheduler.StepLR(o, 2); out = [str(o), s.last_epoch]",
     "local o = torch.optim.SGD({nn.Parameter(torch.ones(1))}, {lr = 0.1}); local s = torch.optim.lr_scheduler.StepLR(o, 2); return {tostring(o), s.last_epoch}"),
    # random_split: a permutation from the generator, fractions dealt as PyTorch deals them
    ('split_counts', "from torch.utils.data import random_split, TensorDataset; a, b = random_split(TensorDataset(torch.arange(10)), [7, 3], generator=torch.Generator().manual_seed(42)); out = [torch.tensor(a.indices), torch.tensor(b.indices)]",
     "local a, b = torch.utils.data.random_split(torch.utils.data.TensorDataset(torch.arange(10)), {7, 3}, {generator=torch.Generator():manual_seed(42)}); return {torch.tensor(a.indices), torch.tensor(b.indices)}"),
    ('split_fractions', "from torch.utils.data import random_split, TensorDataset; a, b, c = random_split(TensorDataset(torch.arange(10)), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(1)); out = [torch.tensor(a.indices), torch.tensor(b.indices), torch.tensor(c.indices)]",
     "local a, b, c = torch.utils.data.random_split(torch.utils.data.TensorDataset(torch.arange(10)), {0.5, 0.3, 0.2}, {generator=torch.Generator():manual_seed(1)}); return {torch.tensor(a.indices), torch.tensor(b.indices), torch.tensor(c.indices)}"),
    ('split_remainder', "from torch.utils.data import random_split, TensorDataset; torch.manual_seed(0); a, b = random_split(TensorDataset(torch.arange(5)), [0.5, 0.5]); out = [torch.tensor(a.indices), torch.tensor(b.indices)]",
     "torch.manual_seed(0); local a, b = torch.utils.data.random_split(torch.utils.data.TensorDataset(torch.arange(5)), {0.5, 0.5}); return {torch.tensor(a.indices), torch.tensor(b.indices)}"),
    ('split_bad_sum', "from torch.utils.data import random_split, TensorDataset; random_split(TensorDataset(torch.arange(5)), [2, 2])",
     "return torch.utils.data.random_split(torch.utils.data.TensorDataset(torch.arange(5)), {2, 2})"),
    # dropout's mask is bernoulli_(1 - p), scaled: the same elements dropped after the same seed
    ('dropout_seeded', "torch.manual_seed(3); out = [torch.nn.functional.dropout(torch.ones(3, 4, device=DEV), 0.4), torch.nn.Dropout(0.5)(torch.arange(8., device=DEV))]",
     "torch.manual_seed(3); return {nn.functional.dropout(torch.ones(3, 4, {device=DEV}), 0.4), nn.Dropout(0.5)(torch.arange(8., {device=DEV}))}"),
    ('bernoulli_half', "torch.manual_seed(0); out = torch.bernoulli(torch.full((5,), 0.3, dtype=torch.float16, device=DEV))",
     "torch.manual_seed(0); return torch.bernoulli(torch.full({5}, 0.3, {dtype=torch.float16, device=DEV}))"),
    ('bernoulli_p', "torch.manual_seed(1); out = torch.bernoulli(torch.zeros(6, device=DEV), 0.3)",
     "torch.manual_seed(1); return torch.bernoulli(torch.zeros(6, {device=DEV}), 0.3)"),
    ('bernoulli_method', "torch.manual_seed(1); out = torch.full((4,), 0.7, device=DEV).bernoulli()",
     "torch.manual_seed(1); return torch.full({4}, 0.7, {device=DEV}):bernoulli()"),
    ('bernoulli_inplace_p', "torch.manual_seed(2); out = torch.zeros(7, dtype=torch.int64, device=DEV).bernoulli_(0.4)",
     "torch.manual_seed(2); return torch.zeros(7, {dtype=torch.int64, device=DEV}):bernoulli_(0.4)"),
    ('bernoulli_inplace_default', "torch.manual_seed(2); out = torch.zeros(5, dtype=torch.bool, device=DEV).bernoulli_()",
     "torch.manual_seed(2); return torch.zeros(5, {dtype=torch.bool, device=DEV}):bernoulli_()"),
    ('bernoulli_inplace_t', "torch.manual_seed(3); out = torch.zeros(2, 3, device=DEV).bernoulli_(torch.tensor([0.1, 0.5, 0.9], device=DEV))",
     "torch.manual_seed(3); return torch.zeros(2, 3, {device=DEV}):bernoulli_(torch.tensor({0.1, 0.5, 0.9}, {device=DEV}))"),
    ('bernoulli_gen', "g = torch.Generator().manual_seed(5); out = torch.bernoulli(torch.full((6,), 0.5), generator=g)",
     "local g = torch.Generator():manual_seed(5); return torch.bernoulli(torch.full({6}, 0.5), {generator=g})"),
    ('bernoulli_grad', "p = torch.full((3,), 0.5, requires_grad=True); b = torch.bernoulli(p); b.sum().backward(); out = (b.grad_fn.name(), p.grad)",
     "local p = torch.full({3}, 0.5, {requires_grad=true}); local b = torch.bernoulli(p); b:sum():backward(); return {b.grad_fn:name(), p.grad}"),
    ('bernoulli_bad_p', "torch.bernoulli(torch.tensor([1.5]))", "return torch.bernoulli(torch.tensor({1.5}))"),
    ('bernoulli_long', "torch.bernoulli(torch.tensor([1, 0]))", "return torch.bernoulli(torch.tensor({1, 0}))"),
    ('bernoulli_bad_scalar', "torch.zeros(3).bernoulli_(1.5)", "return torch.zeros(3):bernoulli_(1.5)"),
    ('bernoulli_bad_shape', "torch.ones(2).bernoulli_(torch.ones(3))", "return torch.ones(2):bernoulli_(torch.ones(3))"),
    ('bernoulli_leaf', "torch.ones(2, requires_grad=True).bernoulli_()", "return torch.ones(2, {requires_grad=true}):bernoulli_()"),
    # exponential_
    ('exponential', "torch.manual_seed(0); out = torch.empty(5, device=DEV).exponential_()",
     "torch.manual_seed(0); return torch.empty(5, {device=DEV}):exponential_()"),
    ('exponential_lambd', "torch.manual_seed(0); out = torch.empty(3, dtype=torch.float64, device=DEV).exponential_(2.5)",
     "torch.manual_seed(0); return torch.empty(3, {dtype=torch.float64, device=DEV}):exponential_(2.5)"),
    ('exponential_bad', "torch.ones(2).exponential_(0)", "return torch.ones(2):exponential_(0)"),
    ('exponential_long', "torch.ones(2, dtype=torch.long).exponential_()", "return torch.ones(2, {dtype=torch.int64}):exponential_()"),
    # multinomial
    ('multinomial_repl', "torch.manual_seed(0); out = torch.multinomial(torch.tensor([0.1, 0.2, 0.3, 0.4], device=DEV), 12, True)",
     "torch.manual_seed(0); return torch.multinomial(torch.tensor({0.1, 0.2, 0.3, 0.4}, {device=DEV}), 12, true)"),
    ('multinomial_repl_2d', "torch.manual_seed(1); out = torch.multinomial(torch.tensor([[1., 0., 3.], [0., 5., 5.]], device=DEV), 6, replacement=True)",
     "torch.manual_seed(1); return torch.multinomial(torch.tensor({{1., 0., 3.}, {0., 5., 5.}}, {device=DEV}), 6, {replacement=true})"),
    ('multinomial_one', "torch.manual_seed(2); out = torch.multinomial(torch.ones(6, device=DEV) / 6, 1, True)",
     "torch.manual_seed(2); return torch.multinomial(torch.ones(6, {device=DEV}) / 6, 1, true)"),
    ('multinomial_norepl', "torch.manual_seed(3); out = torch.multinomial(torch.tensor([0.1, 0.2, 0.3, 0.4], device=DEV), 4)",
     "torch.manual_seed(3); return torch.multinomial(torch.tensor({0.1, 0.2, 0.3, 0.4}, {device=DEV}), 4)"),
    ('multinomial_norepl_2d', "torch.manual_seed(4); out = torch.tensor([[1., 2., 3., 4., 5.], [5., 4., 3., 2., 1.]], dtype=torch.float64, device=DEV).multinomial(3)",
     "torch.manual_seed(4); return torch.tensor({{1., 2., 3., 4., 5.}, {5., 4., 3., 2., 1.}}, {dtype=torch.float64, device=DEV}):multinomial(3)"),
    ('multinomial_zero_prob', "torch.manual_seed(5); out = torch.multinomial(torch.tensor([1., 0.], device=DEV), 2)",
     "torch.manual_seed(5); return torch.multinomial(torch.tensor({1., 0.}, {device=DEV}), 2)"),
    ('multinomial_gen', "g = torch.Generator().manual_seed(6); out = torch.multinomial(torch.ones(5), 8, True, generator=g)",
     "local g = torch.Generator():manual_seed(6); return torch.multinomial(torch.ones(5), 8, true, {generator=g})"),
    ('multinomial_many', "torch.manual_seed(7); out = torch.multinomial(torch.tensor([0.5, 0.25, 0.25]), 1000, True).bincount()",
     "torch.manual_seed(7); local s = torch.multinomial(torch.tensor({0.5, 0.25, 0.25}), 1000, true); return torch.stack({s:eq(0):sum(), s:eq(1):sum(), s:eq(2):sum()})"),
    ('multinomial_too_many', "torch.multinomial(torch.tensor([1., 2.]), 3)", "return torch.multinomial(torch.tensor({1., 2.}), 3)"),
    ('multinomial_3d', "torch.multinomial(torch.ones(1, 1, 2), 1)", "return torch.multinomial(torch.ones(1, 1, 2), 1)"),
    ('multinomial_long', "torch.multinomial(torch.tensor([1, 2]), 1)", "return torch.multinomial(torch.tensor({1, 2}), 1)"),
    ('multinomial_neg', "torch.multinomial(torch.tensor([-1., 2.]), 1)", "return torch.multinomial(torch.tensor({-1., 2.}), 1)"),
    ('multinomial_neg_repl', "torch.multinomial(torch.tensor([-1., 2.]), 2, True)", "return torch.multinomial(torch.tensor({-1., 2.}), 2, true)"),
    ('multinomial_zero_sum', "torch.multinomial(torch.tensor([0., 0.]), 2, True)", "return torch.multinomial(torch.tensor({0., 0.}), 2, true)"),
    ('multinomial_zero_n', "torch.multinomial(torch.tensor([1., 2.]), 0)", "return torch.multinomial(torch.tensor({1., 2.}), 0)"),
    ('multinomial_bad_gen', "torch.multinomial(torch.tensor([1., 2.]), 1, generator=3)", "return torch.multinomial(torch.tensor({1., 2.}), 1, {generator=3})"),
]


INDEX = [
    # gather / scatter / scatter_add, every dtype family
    ('idx_gather', "x = torch.arange(6., device=DEV).view(2, 3); out = x.gather(1, torch.tensor([[0, 2, 2], [1, 0, 1]], device=DEV))",
     "local x = torch.arange(6., {device=DEV}):view(2, 3); return x:gather(1, torch.tensor({{0, 2, 2}, {1, 0, 1}}, {device=DEV}))"),
    ('idx_gather_dim0', "x = torch.arange(6, device=DEV).view(3, 2); out = torch.gather(x, 0, torch.tensor([[2, 0]], device=DEV))",
     "local x = torch.arange(6, {device=DEV}):view(3, 2); return torch.gather(x, 0, torch.tensor({{2, 0}}, {device=DEV}))"),
    ('idx_gather_types', "i = torch.tensor([1, 0], device=DEV); out = [torch.tensor([1, 0], dtype=d, device=DEV).gather(0, i) for d in (torch.float16, torch.bfloat16, torch.float64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool)]",
     "local i = torch.tensor({1, 0}, {device=DEV}); local r = {}; for _, d in ipairs({torch.float16, torch.bfloat16, torch.float64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool}) do r[#r + 1] = torch.tensor({1, 0}, {dtype=d, device=DEV}):gather(0, i) end; return r"),
    ('idx_gather_neg_dim', "out = torch.arange(4.).view(2, 2).gather(-1, torch.tensor([[1], [0]]))",
     "return torch.arange(4.):view(2, 2):gather(-1, torch.tensor({{1}, {0}}))"),
    ('idx_gather_noncontig', "x = torch.arange(12.).view(3, 4).t(); out = x.gather(0, torch.tensor([[2, 1, 0]]))",
     "local x = torch.arange(12.):view(3, 4):t(); return x:gather(0, torch.tensor({{2, 1, 0}}))"),
    ('idx_gather_grad', "x = torch.arange(4., requires_grad=True); y = x.gather(0, torch.tensor([1, 1, 3])); (y * torch.tensor([1., 2., 3.])).sum().backward(); out = (y, x.grad)",
     "local x = torch.arange(4., {requires_grad=true}); local y = x:gather(0, torch.tensor({1, 1, 3})); (y * torch.tensor({1., 2., 3.})):sum():backward(); return {y, x.grad}"),
    ('idx_gather_int32', "torch.zeros(3).gather(0, torch.tensor([0], dtype=torch.int32))", "return torch.zeros(3):gather(0, torch.tensor({0}, {dtype=torch.int32}))"),
    ('idx_gather_dims', "torch.zeros(2, 3).gather(1, torch.tensor([0, 1]))", "return torch.zeros(2, 3):gather(1, torch.tensor({0, 1}))"),
    ('idx_gather_size', "torch.zeros(2, 3).gather(0, torch.tensor([[0, 1, 0, 1]]))", "return torch.zeros(2, 3):gather(0, torch.tensor({{0, 1, 0, 1}}))"),
    ('idx_gather_oob', "torch.zeros(2, 3).gather(1, torch.tensor([[0], [5]]))", "return torch.zeros(2, 3):gather(1, torch.tensor({{0}, {5}}))"),
    ('idx_gather_neg', "torch.zeros(2, 3).gather(1, torch.tensor([[-1]]))", "return torch.zeros(2, 3):gather(1, torch.tensor({{-1}}))"),
    ('idx_gather_devices', "torch.zeros(2).gather(0, torch.tensor([0]))", "return torch.zeros(2):gather(0, torch.tensor({0}))"),
    ('idx_scatter_src', "out = torch.zeros(2, 4, device=DEV).scatter(1, torch.tensor([[3, 0], [1, 2]], device=DEV), torch.tensor([[1., 2.], [3., 4.]], device=DEV))",
     "return torch.zeros(2, 4, {device=DEV}):scatter(1, torch.tensor({{3, 0}, {1, 2}}, {device=DEV}), torch.tensor({{1., 2.}, {3., 4.}}, {device=DEV}))"),
    ('idx_scatter_value', "out = torch.zeros(3, dtype=torch.int64, device=DEV).scatter(0, torch.tensor([2, 0], device=DEV), 7)",
     "return torch.zeros(3, {dtype=torch.int64, device=DEV}):scatter(0, torch.tensor({2, 0}, {device=DEV}), 7)"),
    ('idx_scatter_value_kw', "out = torch.zeros(3, device=DEV).scatter(0, torch.tensor([1], device=DEV), value=2.5)",
     "return torch.zeros(3, {device=DEV}):scatter(0, torch.tensor({1}, {device=DEV}), {value=2.5})"),
    ('idx_scatter_reduce_add', "out = torch.ones(3, device=DEV).scatter(0, torch.tensor([0, 0, 2], device=DEV), torch.tensor([1., 2., 3.], device=DEV), reduce='add')",
     "return torch.ones(3, {device=DEV}):scatter(0, torch.tensor({0, 0, 2}, {device=DEV}), torch.tensor({1., 2., 3.}, {device=DEV}), {reduce='add'})"),
    ('idx_scatter_reduce_mul', "out = torch.full((3,), 2., device=DEV).scatter(0, torch.tensor([0, 0, 2], device=DEV), 3., reduce='multiply')",
     "return torch.full({3}, 2., {device=DEV}):scatter(0, torch.tensor({0, 0, 2}, {device=DEV}), 3., {reduce='multiply'})"),
    ('idx_scatter_inplace', "x = torch.zeros(2, 3, device=DEV); x.scatter_(0, torch.tensor([[1, 0, 1]], device=DEV), torch.tensor([[5., 6., 7.]], device=DEV)); out = x",
     "local x = torch.zeros(2, 3, {device=DEV}); x:scatter_(0, torch.tensor({{1, 0, 1}}, {device=DEV}), torch.tensor({{5., 6., 7.}}, {device=DEV})); return x"),
    ('idx_scatter_bool', "out = torch.zeros(4, dtype=torch.bool, device=DEV).scatter(0, torch.tensor([1, 3], device=DEV), True)",
     "return torch.zeros(4, {dtype=torch.bool, device=DEV}):scatter(0, torch.tensor({1, 3}, {device=DEV}), true)"),
    ('idx_scatter_grad', "x = torch.ones(3, requires_grad=True); s = torch.tensor([5., 6.], requires_grad=True); y = x.scatter(0, torch.tensor([2, 0]), s); (y * torch.tensor([1., 2., 3.])).sum().backward(); out = (y, x.grad, s.grad)",
     "local x = torch.ones(3, {requires_grad=true}); local s = torch.tensor({5., 6.}, {requires_grad=true}); local y = x:scatter(0, torch.tensor({2, 0}), s); (y * torch.tensor({1., 2., 3.})):sum():backward(); return {y, x.grad, s.grad}"),
    ('idx_scatter_value_grad', "x = torch.ones(3, requires_grad=True); y = x.scatter(0, torch.tensor([1]), 0.); y.sum().backward(); out = (y, x.grad)",
     "local x = torch.ones(3, {requires_grad=true}); local y = x:scatter(0, torch.tensor({1}), 0.); y:sum():backward(); return {y, x.grad}"),
    ('idx_scatter_dtype', "torch.zeros(2, 3).scatter(1, torch.tensor([[0]]), torch.ones(1, 1, dtype=torch.float64))",
     "return torch.zeros(2, 3):scatter(1, torch.tensor({{0}}), torch.ones(1, 1, {dtype=torch.float64}))"),
    ('idx_scatter_size', "torch.zeros(2, 3).scatter(1, torch.tensor([[0, 1, 2]]), torch.ones(1, 2))",
     "return torch.zeros(2, 3):scatter(1, torch.tensor({{0, 1, 2}}), torch.ones(1, 2))"),
    ('idx_scatter_bad_reduce', "torch.zeros(3).scatter(0, torch.tensor([0]), 1., reduce='max')",
     "return torch.zeros(3):scatter(0, torch.tensor({0}), 1., {reduce='max'})"),
    ('idx_scatter_oob', "torch.zeros(3).scatter(0, torch.tensor([3]), 1.)", "return torch.zeros(3):scatter(0, torch.tensor({3}), 1.)"),
    ('idx_scatter_add', "out = torch.zeros(2, 3, device=DEV).scatter_add(1, torch.tensor([[0, 0, 2], [1, 1, 1]], device=DEV), torch.arange(1., 7., device=DEV).view(2, 3))",
     "return torch.zeros(2, 3, {device=DEV}):scatter_add(1, torch.tensor({{0, 0, 2}, {1, 1, 1}}, {device=DEV}), torch.arange(1., 7., {device=DEV}):view(2, 3))"),
    ('idx_scatter_add_types', "i = torch.tensor([0, 0, 1], device=DEV); out = [torch.zeros(2, dtype=d, device=DEV).scatter_add(0, i, torch.ones(3, dtype=d, device=DEV)) for d in (torch.float16, torch.bfloat16, torch.float64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.int64)]",
     "local i = torch.tensor({0, 0, 1}, {device=DEV}); local r = {}; for _, d in ipairs({torch.float16, torch.bfloat16, torch.float64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.int64}) do r[#r + 1] = torch.zeros(2, {dtype=d, device=DEV}):scatter_add(0, i, torch.ones(3, {dtype=d, device=DEV})) end; return r"),
    ('idx_scatter_add_inplace', "x = torch.zeros(4, device=DEV); torch.Tensor.scatter_add_(x, 0, torch.tensor([3, 3, 0], device=DEV), torch.ones(3, device=DEV)); out = x",
     "local x = torch.zeros(4, {device=DEV}); x:scatter_add_(0, torch.tensor({3, 3, 0}, {device=DEV}), torch.ones(3, {device=DEV})); return x"),
    ('idx_scatter_add_grad', "x = torch.zeros(3, requires_grad=True); s = torch.ones(2, requires_grad=True); y = torch.scatter_add(x, 0, torch.tensor([1, 1]), s); (y * torch.tensor([1., 2., 3.])).sum().backward(); out = (y, x.grad, s.grad)",
     "local x = torch.zeros(3, {requires_grad=true}); local s = torch.ones(2, {requires_grad=true}); local y = torch.scatter_add(x, 0, torch.tensor({1, 1}), s); (y * torch.tensor({1., 2., 3.})):sum():backward(); return {y, x.grad, s.grad}"),
    # index_add
    ('idx_index_add', "out = torch.zeros(3, 2, device=DEV).index_add(0, torch.tensor([2, 0, 2], device=DEV), torch.arange(6., device=DEV).view(3, 2))",
     "return torch.zeros(3, 2, {device=DEV}):index_add(0, torch.tensor({2, 0, 2}, {device=DEV}), torch.arange(6., {device=DEV}):view(3, 2))"),
    ('idx_index_add_dim1_alpha', "out = torch.ones(2, 3, device=DEV).index_add(1, torch.tensor([1, 1], device=DEV), torch.ones(2, 2, device=DEV), alpha=-2)",
     "return torch.ones(2, 3, {device=DEV}):index_add(1, torch.tensor({1, 1}, {device=DEV}), torch.ones(2, 2, {device=DEV}), {alpha=-2})"),
    ('idx_index_add_int_alpha', "out = torch.zeros(3, dtype=torch.int64, device=DEV).index_add(0, torch.tensor([0, 1], device=DEV), torch.ones(2, dtype=torch.int64, device=DEV), alpha=2)",
     "return torch.zeros(3, {dtype=torch.int64, device=DEV}):index_add(0, torch.tensor({0, 1}, {device=DEV}), torch.ones(2, {dtype=torch.int64, device=DEV}), {alpha=2})"),
    ('idx_index_add_inplace', "x = torch.zeros(4, device=DEV); x.index_add_(0, torch.tensor([3, 3], dtype=torch.int32, device=DEV), torch.tensor([1., 2.], device=DEV)); out = x",
     "local x = torch.zeros(4, {device=DEV}); x:index_add_(0, torch.tensor({3, 3}, {dtype=torch.int32, device=DEV}), torch.tensor({1., 2.}, {device=DEV})); return x"),
    ('idx_index_add_grad', "x = torch.zeros(3, requires_grad=True); s = torch.ones(2, requires_grad=True); y = x.index_add(0, torch.tensor([2, 0]), s, alpha=3); (y * torch.tensor([1., 2., 3.])).sum().backward(); out = (y, x.grad, s.grad)",
     "local x = torch.zeros(3, {requires_grad=true}); local s = torch.ones(2, {requires_grad=true}); local y = x:index_add(0, torch.tensor({2, 0}), s, {alpha=3}); (y * torch.tensor({1., 2., 3.})):sum():backward(); return {y, x.grad, s.grad}"),
    ('idx_index_add_oob', "torch.zeros(3).index_add(0, torch.tensor([0, 5]), torch.ones(2))", "return torch.zeros(3):index_add(0, torch.tensor({0, 5}), torch.ones(2))"),
    ('idx_index_add_count', "torch.zeros(3).index_add(0, torch.tensor([0, 1]), torch.ones(3))", "return torch.zeros(3):index_add(0, torch.tensor({0, 1}), torch.ones(3))"),
    ('idx_index_add_float_index', "torch.zeros(3).index_add(0, torch.tensor([0, 1.]), torch.ones(2))", "return torch.zeros(3):index_add(0, torch.tensor({0, 1.}), torch.ones(2))"),
    ('idx_index_add_2d_index', "torch.zeros(3).index_add(0, torch.tensor([[0, 1]]), torch.ones(2))", "return torch.zeros(3):index_add(0, torch.tensor({{0, 1}}), torch.ones(2))"),
    ('idx_index_add_dtype', "torch.zeros(3).index_add(0, torch.tensor([0, 1]), torch.ones(2, dtype=torch.int64))", "return torch.zeros(3):index_add(0, torch.tensor({0, 1}), torch.ones(2, {dtype=torch.int64}))"),
    # take, nonzero, where(cond), masked_select
    ('idx_take', "out = torch.arange(6, device=DEV).view(2, 3).t().take(torch.tensor([[0, -1], [4, 1]], device=DEV))",
     "return torch.arange(6, {device=DEV}):view(2, 3):t():take(torch.tensor({{0, -1}, {4, 1}}, {device=DEV}))"),
    ('idx_take_grad', "x = torch.ones(2, 2, requires_grad=True); torch.take(x, torch.tensor([0, 0, 3])).sum().backward(); out = x.grad",
     "local x = torch.ones(2, 2, {requires_grad=true}); torch.take(x, torch.tensor({0, 0, 3})):sum():backward(); return x.grad"),
    ('idx_take_oob', "torch.zeros(3).take(torch.tensor([5]))", "return torch.zeros(3):take(torch.tensor({5}))"),
    ('idx_nonzero', "out = torch.tensor([[0, 1, 0], [2, 0, 3]], device=DEV).nonzero()",
     "return torch.tensor({{0, 1, 0}, {2, 0, 3}}, {device=DEV}):nonzero()"),
    ('idx_nonzero_float_bool', "out = (torch.nonzero(torch.tensor([0., 0.5, -1., 0.], device=DEV)), torch.tensor([True, False, True], device=DEV).nonzero())",
     "return {torch.nonzero(torch.tensor({0., 0.5, -1., 0.}, {device=DEV})), torch.tensor({true, false, true}, {device=DEV}):nonzero()}"),
    ('idx_nonzero_tuple', "out = torch.tensor([[0, 1], [2, 0]], device=DEV).nonzero(as_tuple=True)",
     "return torch.tensor({{0, 1}, {2, 0}}, {device=DEV}):nonzero({as_tuple=true})"),
    ('idx_nonzero_empty', "out = (torch.zeros(2, 3, device=DEV).nonzero(), torch.tensor(0).nonzero(), torch.tensor(3).nonzero(), torch.tensor(3).nonzero(as_tuple=True))",
     "return {torch.zeros(2, 3, {device=DEV}):nonzero(), torch.tensor(0):nonzero(), torch.tensor(3):nonzero(), torch.tensor(3):nonzero({as_tuple=true})}"),
    ('idx_where_one', "out = torch.where(torch.tensor([[True, False], [False, True]], device=DEV))",
     "return torch.where(torch.tensor({{true, false}, {false, true}}, {device=DEV}))"),
    ('idx_masked_select', "out = torch.arange(6., device=DEV).view(2, 3).masked_select(torch.tensor([True, False, True], device=DEV))",
     "return torch.arange(6., {device=DEV}):view(2, 3):masked_select(torch.tensor({true, false, true}, {device=DEV}))"),
    # index_put and advanced indexing
    ('idx_index_put', "out = torch.zeros(2, 3, device=DEV).index_put((torch.tensor([0, 1, 1], device=DEV), torch.tensor([2, 0, 2], device=DEV)), torch.tensor([1., 2., 3.], device=DEV))",
     "return torch.zeros(2, 3, {device=DEV}):index_put({torch.tensor({0, 1, 1}, {device=DEV}), torch.tensor({2, 0, 2}, {device=DEV})}, torch.tensor({1., 2., 3.}, {device=DEV}))"),
    ('idx_index_put_acc', "out = torch.zeros(3, device=DEV).index_put((torch.tensor([0, -1, 0], device=DEV),), torch.tensor([1., 2., 3.], device=DEV), accumulate=True)",
     "return torch.zeros(3, {device=DEV}):index_put({torch.tensor({0, -1, 0}, {device=DEV})}, torch.tensor({1., 2., 3.}, {device=DEV}), true)"),
    ('idx_index_put_rows', "x = torch.zeros(3, 2, device=DEV); x.index_put_((torch.tensor([2, 0], device=DEV),), torch.tensor(5., device=DEV)); out = x",
     "local x = torch.zeros(3, 2, {device=DEV}); x:index_put_({torch.tensor({2, 0}, {device=DEV})}, torch.tensor(5., {device=DEV})); return x"),
    ('idx_index_put_bool', "x = torch.arange(4., device=DEV); out = x.index_put((torch.tensor([True, False, True, False], device=DEV),), torch.tensor(-1., device=DEV))",
     "local x = torch.arange(4., {device=DEV}); return x:index_put({torch.tensor({true, false, true, false}, {device=DEV})}, torch.tensor(-1., {device=DEV}))"),
    ('idx_index_put_grad', "x = torch.ones(3, requires_grad=True); v = torch.tensor([4., 5.], requires_grad=True); y = x.index_put((torch.tensor([0, 2]),), v); (y * torch.tensor([1., 2., 3.])).sum().backward(); out = (y, x.grad, v.grad)",
     "local x = torch.ones(3, {requires_grad=true}); local v = torch.tensor({4., 5.}, {requires_grad=true}); local y = x:index_put({torch.tensor({0, 2})}, v); (y * torch.tensor({1., 2., 3.})):sum():backward(); return {y, x.grad, v.grad}"),
    ('idx_index_put_dtype', "torch.zeros(3).index_put((torch.tensor([0, 1]),), torch.tensor([1, 2]))", "return torch.zeros(3):index_put({torch.tensor({0, 1})}, torch.tensor({1, 2}))"),
    ('idx_index_put_oob', "torch.zeros(3).index_put((torch.tensor([0, 5]),), torch.tensor(1.))", "return torch.zeros(3):index_put({torch.tensor({0, 5})}, torch.tensor(1.))"),
    ('idx_index_put_shapes', "torch.zeros(2, 3).index_put((torch.tensor([0, 1]), torch.tensor([2, 0, 1])), torch.tensor(1.))", "return torch.zeros(2, 3):index_put({torch.tensor({0, 1}), torch.tensor({2, 0, 1})}, torch.tensor(1.))"),
    ('adv_two', "x = torch.arange(12., device=DEV).view(3, 4); out = x[torch.tensor([0, 2, 1], device=DEV), torch.tensor([3, 0, 1], device=DEV)]",
     "local x = torch.arange(12., {device=DEV}):view(3, 4); return x[{torch.tensor({0, 2, 1}, {device=DEV}), torch.tensor({3, 0, 1}, {device=DEV})}]"),
    ('adv_broadcast', "x = torch.arange(12, device=DEV).view(3, 4); out = x[torch.tensor([[0], [2]], device=DEV), torch.tensor([1, 3], device=DEV)]",
     "local x = torch.arange(12, {device=DEV}):view(3, 4); return x[{torch.tensor({{0}, {2}}, {device=DEV}), torch.tensor({1, 3}, {device=DEV})}]"),
    ('adv_slice_first', "x = torch.arange(24, device=DEV).view(2, 3, 4); out = x[:, torch.tensor([0, 2], device=DEV), torch.tensor([1, 3], device=DEV)]",
     "local x = torch.arange(24, {device=DEV}):view(2, 3, 4); return x[{':', torch.tensor({0, 2}, {device=DEV}), torch.tensor({1, 3}, {device=DEV})}]"),
    ('adv_split', "x = torch.arange(24, device=DEV).view(2, 3, 4); out = x[torch.tensor([1, 0], device=DEV), :, torch.tensor([1, 3], device=DEV)]",
     "local x = torch.arange(24, {device=DEV}):view(2, 3, 4); return x[{torch.tensor({1, 0}, {device=DEV}), ':', torch.tensor({1, 3}, {device=DEV})}]"),
    ('adv_int_and_tensor', "x = torch.arange(24, device=DEV).view(2, 3, 4); out = x[1, :, torch.tensor([0, 3], device=DEV)]",
     "local x = torch.arange(24, {device=DEV}):view(2, 3, 4); return x[{1, ':', torch.tensor({0, 3}, {device=DEV})}]"),
    ('adv_one_tensor_slice', "x = torch.arange(12., device=DEV).view(3, 4); out = x[1:, torch.tensor([3, 0], device=DEV)]",
     "local x = torch.arange(12., {device=DEV}):view(3, 4); return x[{'1:', torch.tensor({3, 0}, {device=DEV})}]"),
    ('adv_ellipsis', "x = torch.arange(24, device=DEV).view(2, 3, 4); out = x[..., torch.tensor([2, 1], device=DEV)]",
     "local x = torch.arange(24, {device=DEV}):view(2, 3, 4); return x[{'...', torch.tensor({2, 1}, {device=DEV})}]"),
    ('adv_neg', "x = torch.arange(6, device=DEV).view(2, 3); out = x[torch.tensor([-1, 0], device=DEV), torch.tensor([-1, -3], device=DEV)]",
     "local x = torch.arange(6, {device=DEV}):view(2, 3); return x[{torch.tensor({-1, 0}, {device=DEV}), torch.tensor({-1, -3}, {device=DEV})}]"),
    ('adv_single', "x = torch.arange(6., device=DEV).view(3, 2); out = x[torch.tensor([[2, 0]], device=DEV)]",
     "local x = torch.arange(6., {device=DEV}):view(3, 2); return x[torch.tensor({{2, 0}}, {device=DEV})]"),
    ('adv_mask_and_tensor', "x = torch.arange(12, device=DEV).view(3, 4); out = x[torch.tensor([True, False, True], device=DEV), torch.tensor([0, 3], device=DEV)]",
     "local x = torch.arange(12, {device=DEV}):view(3, 4); return x[{torch.tensor({true, false, true}, {device=DEV}), torch.tensor({0, 3}, {device=DEV})}]"),
    ('adv_grad', "x = torch.arange(6., requires_grad=True); y = x.view(2, 3)[torch.tensor([0, 1, 0]), torch.tensor([1, 2, 1])]; (y * torch.tensor([1., 2., 3.])).sum().backward(); out = (y, x.grad)",
     "local x = torch.arange(6., {requires_grad=true}); local y = x:view(2, 3)[{torch.tensor({0, 1, 0}), torch.tensor({1, 2, 1})}]; (y * torch.tensor({1., 2., 3.})):sum():backward(); return {y, x.grad}"),
    ('adv_mask_grad_fn', "x = torch.ones(2, 2, requires_grad=True); out = x[torch.tensor([True, False])]",
     "local x = torch.ones(2, 2, {requires_grad=true}); return x[torch.tensor({true, false})]"),
    ('adv_set', "x = torch.zeros(3, 3, device=DEV); x[torch.tensor([0, 2], device=DEV), torch.tensor([1, 2], device=DEV)] = torch.tensor([5., 6.], device=DEV); out = x",
     "local x = torch.zeros(3, 3, {device=DEV}); x[{torch.tensor({0, 2}, {device=DEV}), torch.tensor({1, 2}, {device=DEV})}] = torch.tensor({5., 6.}, {device=DEV}); return x"),
    ('adv_set_scalar_rows', "x = torch.zeros(3, 2, dtype=torch.int64, device=DEV); x[torch.tensor([2, 0], device=DEV)] = 4; out = x",
     "local x = torch.zeros(3, 2, {dtype=torch.int64, device=DEV}); x[torch.tensor({2, 0}, {device=DEV})] = 4; return x"),
    ('adv_set_slice', "x = torch.zeros(2, 3, device=DEV); x[:, torch.tensor([0, 2], device=DEV)] = torch.tensor([[1., 2.]], device=DEV); out = x",
     "local x = torch.zeros(2, 3, {device=DEV}); x[{':', torch.tensor({0, 2}, {device=DEV})}] = torch.tensor({{1., 2.}}, {device=DEV}); return x"),
    ('adv_oob', "torch.zeros(2, 3)[torch.tensor([0, 5]), torch.tensor([2, 0])]", "return torch.zeros(2, 3)[{torch.tensor({0, 5}), torch.tensor({2, 0})}]"),
    ('adv_shapes', "torch.zeros(2, 3)[torch.tensor([0, 1]), torch.tensor([2, 0, 1])]", "return torch.zeros(2, 3)[{torch.tensor({0, 1}), torch.tensor({2, 0, 1})}]"),
    ('adv_too_many', "torch.zeros(2)[torch.tensor([0]), torch.tensor([0])]", "return torch.zeros(2)[{torch.tensor({0}), torch.tensor({0})}]"),
    ('adv_float_index', "torch.zeros(2)[torch.tensor([0.])]", "return torch.zeros(2)[torch.tensor({0.})]"),
]

BYTES = [
    ('bytes_roundtrip', "x = torch.tensor([1.5, -2., 3.25], device=DEV); out = torch.frombuffer(bytearray(x.cpu().numpy().tobytes()), dtype=torch.float32)",
     "local x = torch.tensor({1.5, -2., 3.25}, {device=DEV}); return torch.frombuffer(x:tobytes(), {dtype=torch.float32})"),
    ('bytes_types', "out = [torch.frombuffer(bytearray(torch.arange(4, dtype=d).numpy().tobytes()), dtype=d) for d in (torch.int16, torch.int64, torch.uint8, torch.float64)]",
     "local r = {}; for _, d in ipairs({torch.int16, torch.int64, torch.uint8, torch.float64}) do r[#r + 1] = torch.frombuffer(torch.arange(4, {dtype=d}):tobytes(), {dtype=d}) end; return r"),
    ('bytes_count_offset', "out = torch.frombuffer(bytearray(b'\\x01\\x02\\x03\\x04\\x05\\x06'), dtype=torch.int16, count=2, offset=2)",
     "return torch.frombuffer('\\1\\2\\3\\4\\5\\6', {dtype=torch.int16, count=2, offset=2})"),
    ('bytes_bad_len', "torch.frombuffer(bytearray(b'\\x01\\x02\\x03'), dtype=torch.int16)", "return torch.frombuffer('\\1\\2\\3', {dtype=torch.int16})"),
    ('bytes_bad_count', "torch.frombuffer(bytearray(b'\\x01\\x02\\x03\\x04'), dtype=torch.int16, count=3)", "return torch.frombuffer('\\1\\2\\3\\4', {dtype=torch.int16, count=3})"),
    ('bytes_bad_offset', "torch.frombuffer(bytearray(b'\\x01\\x02'), dtype=torch.int8, offset=5)", "return torch.frombuffer('\\1\\2', {dtype=torch.int8, offset=5})"),
    ('bytes_no_dtype', "torch.frombuffer(bytearray(b'\\x01\\x02'))", "return torch.frombuffer('\\1\\2')"),
    # x[key] = value with autograd (Note [Assignment with autograd]): the node PyTorch names, and the gradients
    ('setitem_grad_mask_number', "w = torch.tensor([1., -2., 3.], requires_grad=True, device=DEV); x = w.clone(); x[w < 0] = 0; (x * torch.tensor([1., 2., 3.], device=DEV)).sum().backward(); out = [x, w.grad]",
     "local w = torch.tensor({1., -2., 3.}, {requires_grad=true, device=DEV}); local x = w:clone(); x[w:lt(0)] = 0; (x * torch.tensor({1., 2., 3.}, {device=DEV})):sum():backward(); return {x, w.grad}"),
    ('setitem_grad_int', "w = torch.tensor([1., -2., 3.], requires_grad=True, device=DEV); x = w * 1; x[1] = 5; (x * torch.tensor([1., 2., 3.], device=DEV)).sum().backward(); out = [x, w.grad]",
     "local w = torch.tensor({1., -2., 3.}, {requires_grad=true, device=DEV}); local x = w * 1; x[1] = 5; (x * torch.tensor({1., 2., 3.}, {device=DEV})):sum():backward(); return {x, w.grad}"),
    ('setitem_grad_slice_value', "v = torch.tensor(7., requires_grad=True, device=DEV); y = torch.zeros(3, device=DEV); y[0:2] = v; y.sum().backward(); out = [y, v.grad]",
     "local v = torch.tensor(7., {requires_grad=true, device=DEV}); local y = torch.zeros(3, {device=DEV}); y['0:2'] = v; y:sum():backward(); return {y, v.grad}"),
    ('setitem_grad_column', "m = torch.ones(2, 3, device=DEV).requires_grad_(); m2 = m * 1; v = torch.tensor([5., 6.], requires_grad=True, device=DEV); m2[:, 1] = v; (m2 * m2).sum().backward(); out = [m2, m.grad, v.grad]",
     "local m = torch.ones(2, 3, {device=DEV}):requires_grad_(); local m2 = m * 1; local v = torch.tensor({5., 6.}, {requires_grad=true, device=DEV}); m2[{':', 1}] = v; (m2 * m2):sum():backward(); return {m2, m.grad, v.grad}"),
    ('setitem_grad_mask_tensor', "v = torch.tensor([1., 2.], requires_grad=True, device=DEV); z = torch.zeros(3, device=DEV); z[torch.tensor([True, False, True], device=DEV)] = v; (z * torch.tensor([1., 2., 3.], device=DEV)).sum().backward(); out = [z, v.grad]",
     "local v = torch.tensor({1., 2.}, {requires_grad=true, device=DEV}); local z = torch.zeros(3, {device=DEV}); z[torch.tensor({true, false, true}, {device=DEV})] = v; (z * torch.tensor({1., 2., 3.}, {device=DEV})):sum():backward(); return {z, v.grad}"),
    ('setitem_grad_leaf', "w = torch.ones(2, requires_grad=True, device=DEV); w[0] = 3",
     "local w = torch.ones(2, {requires_grad=true, device=DEV}); w[0] = 3"),
    # (on the CPU only: the harness prints a device's tensors through .cpu(), a ToCopyBackward0)
    ('dist_grad_params', "p = torch.tensor([0.2, 0.3, 0.5], requires_grad=True); n = torch.distributions.Normal(p, p * 2); out = [torch.distributions.Multinomial(4, p).log_prob(torch.tensor([1., 1., 2.])), n.mean, n.stddev]",
     "local p = torch.tensor({0.2, 0.3, 0.5}, {requires_grad=true}); local n = torch.distributions.Normal(p, p * 2); return {torch.distributions.Multinomial(4, p):log_prob(torch.tensor({1., 1., 2.})), n.mean, n.stddev}"),
]

DIST = [
    ('dist_normal_repr', "from torch.distributions import Normal; out = (Normal(0., 1.), Normal(torch.zeros(2), 1.), Normal(torch.tensor([1.]), torch.tensor([2.])))",
     "local Normal = torch.distributions.Normal; return {Normal(0., 1.), Normal(torch.zeros(2), 1.), Normal(torch.tensor({1.}), torch.tensor({2.}))}"),
    ('dist_normal_stats', "from torch.distributions import Normal; n = Normal(torch.tensor([0., 1.]), torch.tensor([1., 2.])); out = (n.mean, n.variance, n.stddev, n.mode, n.batch_shape, n.event_shape, n.entropy(), n.log_prob(torch.tensor([0.5, 0.5])), n.cdf(torch.tensor([0., 1.])), n.icdf(torch.tensor([0.9, 0.1])))",
     "local n = torch.distributions.Normal(torch.tensor({0., 1.}), torch.tensor({1., 2.})); return {n.mean, n.variance, n.stddev, n.mode, n.batch_shape, n.event_shape, n:entropy(), n:log_prob(torch.tensor({0.5, 0.5})), n:cdf(torch.tensor({0., 1.})), n:icdf(torch.tensor({0.9, 0.1}))}"),
    ('dist_normal_scalar', "from torch.distributions import Normal; n = Normal(0., 1.); out = (n.mean, n.variance, n.entropy(), n.log_prob(torch.tensor([0., 1.])))",
     "local n = torch.distributions.Normal(0., 1.); return {n.mean, n.variance, n:entropy(), n:log_prob(torch.tensor({0., 1.}))}"),
    ('dist_normal_sample', "from torch.distributions import Normal; torch.manual_seed(0); out = (Normal(torch.zeros(3, device=DEV), 2.).sample((2,)), Normal(torch.tensor(0., device=DEV), 1.).sample(), Normal(torch.tensor(1., device=DEV), 0.5).rsample((3,)))",
     "torch.manual_seed(0); local Normal = torch.distributions.Normal; return {Normal(torch.zeros(3, {device=DEV}), 2.):sample({2}), Normal(torch.tensor(0., {device=DEV}), 1.):sample(), Normal(torch.tensor(1., {device=DEV}), 0.5):rsample({3})}"),
    ('dist_normal_rsample_grad', "from torch.distributions import Normal; torch.manual_seed(1); m = torch.zeros(2, requires_grad=True); s = Normal(m, 1.).rsample(); s.sum().backward(); out = m.grad",
     "torch.manual_seed(1); local m = torch.zeros(2, {requires_grad=true}); local s = torch.distributions.Normal(m, 1.):rsample(); s:sum():backward(); return m.grad"),
    ('dist_normal_bad_scale', "from torch.distributions import Normal; Normal(0., -1.)", "return torch.distributions.Normal(0., -1.)"),
    ('dist_categorical', "from torch.distributions import Categorical; c = Categorical(torch.tensor([1., 2., 3., 4.])); out = (c, c.probs, c.logits, c.mean, c.variance, c.mode, c.entropy(), c.param_shape, c.batch_shape, c.log_prob(torch.tensor([0, 3])))",
     "local c = torch.distributions.Categorical(torch.tensor({1., 2., 3., 4.})); return {c, c.probs, c.logits, c.mean, c.variance, c.mode, c:entropy(), c.param_shape, c.batch_shape, c:log_prob(torch.tensor({0, 3}))}"),
    ('dist_categorical_logits', "from torch.distributions import Categorical; c = Categorical(logits=torch.tensor([0., 1., 2.])); out = (c, c.probs, c.logits, c.entropy())",
     "local c = torch.distributions.Categorical({logits=torch.tensor({0., 1., 2.})}); return {c, c.probs, c.logits, c:entropy()}"),
    ('dist_categorical_sample', "from torch.distributions import Categorical; torch.manual_seed(3); out = (Categorical(torch.tensor([0.1, 0.2, 0.7], device=DEV)).sample((8,)), Categorical(torch.tensor([[0.5, 0.5], [0.9, 0.1]], device=DEV)).sample((3,)), Categorical(torch.tensor([0.3, 0.7], device=DEV)).sample())",
     "torch.manual_seed(3); local C = torch.distributions.Categorical; return {C(torch.tensor({0.1, 0.2, 0.7}, {device=DEV})):sample({8}), C(torch.tensor({{0.5, 0.5}, {0.9, 0.1}}, {device=DEV})):sample({3}), C(torch.tensor({0.3, 0.7}, {device=DEV})):sample()}"),
    ('dist_categorical_bad', "from torch.distributions import Categorical; Categorical(torch.tensor([-1., 2.]))", "return torch.distributions.Categorical(torch.tensor({-1., 2.}))"),
    ('dist_categorical_both', "from torch.distributions import Categorical; Categorical(probs=torch.ones(2), logits=torch.ones(2))", "return torch.distributions.Categorical({probs=torch.ones(2), logits=torch.ones(2)})"),
    ('dist_multinomial_d2l', "from torch.distributions import Multinomial; torch.manual_seed(0); fair = torch.ones(6, device=DEV) / 6; out = (Multinomial(1, fair).sample(), Multinomial(10, fair).sample(), Multinomial(10, fair).sample((3,)))",
     "torch.manual_seed(0); local fair = torch.ones(6, {device=DEV}) / 6; local M = torch.distributions.Multinomial; return {M(1, fair):sample(), M(10, fair):sample(), M(10, fair):sample({3})}"),
    ('dist_multinomial_counts', "from torch.distributions import Multinomial; torch.manual_seed(0); c = Multinomial(1000, torch.ones(6) / 6).sample(); out = (c / 1000, c.sum())",
     "torch.manual_seed(0); local c = torch.distributions.Multinomial(1000, torch.ones(6) / 6):sample(); return {c / 1000, c:sum()}"),
    ('dist_multinomial_stats', "from torch.distributions import Multinomial; m = Multinomial(10, torch.tensor([0.5, 0.5])); out = (m, m.mean, m.variance, m.log_prob(torch.tensor([3., 7.])), m.total_count, m.event_shape, m.batch_shape)",
     "local m = torch.distributions.Multinomial(10, torch.tensor({0.5, 0.5})); return {m, m.mean, m.variance, m:log_prob(torch.tensor({3., 7.})), m.total_count, m.event_shape, m.batch_shape}"),
    ('dist_multinomial_batch', "from torch.distributions import Multinomial; torch.manual_seed(5); out = Multinomial(4, torch.tensor([[0.2, 0.8], [0.7, 0.3]], device=DEV)).sample((2,))",
     "torch.manual_seed(5); return torch.distributions.Multinomial(4, torch.tensor({{0.2, 0.8}, {0.7, 0.3}}, {device=DEV})):sample({2})"),
]

CASES = RANDOM + INDEX + BYTES + DIST


def text(v):
    if type(v) in (tuple, list):
        return '\n'.join(text(x) for x in v)
    return str(v)


def run(py):
    env = {'torch': torch, 'DEV': DEV}
    try:
        if '=' in py.split('(')[0] or ';' in py:
            exec(py, env)
            return text(env['out'])
        return text(eval(py, env))
    except Exception as e:  # the error text gpulab must give
        return '%s: %s' % (type(e).__name__, str(e).split('\n')[0] if type(e).__name__ == 'TypeError' and 'invalid combination' in str(e) else str(e))


def lua_str(s):
    return '"' + ''.join(c if c.isalnum() or c in ' .,:;()[]{}=+-*/<>_\'!?`%^&|~@#$' else '\\%03d' % ord(c) if ord(c) < 128 else c for c in s) + '"'


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, '..', 'lua', 'b1_ops_expected.lua')
    lines = ['-- Generated by tests/pytorch/gen_b1_ops.py from PyTorch %s: do not edit.' % torch.__version__,
             '-- {name, lua chunk (DEV names the device), what PyTorch printed on the CPU}', 'return {']
    for name, py, lua in CASES:
        lines.append('  {%s, %s,\n   %s},' % (lua_str(name), lua_str(lua), lua_str(run(py))))
    lines.append('}')
    with open(out, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('wrote', os.path.normpath(out), len(CASES), 'cases', file=sys.stderr)


if __name__ == '__main__':
    main()
