#!/usr/bin/env python3
# Needs PyTorch (CPU is enough). Writes tests/lua/op_options_expected.lua: the
# options and corner cases of existing ops that PyTorch 2.x has (std/var's
# correction=, round's decimals=, any/all's dtype for uint8, masked_fill's
# autograd), each as the gpulab (Lua) code and what PyTorch prints for
# the same call (its repr, or "Kind: message" for an error's first line).
# tests/lua/test_op_options.lua runs each case on the CPU and on a virtual CUDA
# device and compares the echo.
#   python3 tests/pytorch/gen_op_options.py
import math
import torch
from expected_cases import repr_of, write_expected

nan, inf = math.nan, math.inf

# (name, Lua code with D for the device string, Python code with D likewise)
CASES = []
def case(name, lua, py):
    CASES.append((name, lua, py))

# ---- std/var: correction= (PyTorch 2.x), beside unbiased= ----
X = "torch.tensor({{1., 2., 4.}, {3., 5., 9.}}, {device=D})"
XP = "torch.tensor([[1., 2., 4.], [3., 5., 9.]], device=D)"
for f in ("std", "var"):
    case(f"{f}_default", f"{X}:{f}()", f"{XP}.{f}()")
    case(f"{f}_c0", f"{X}:{f}{{correction=0}}", f"{XP}.{f}(correction=0)")
    case(f"{f}_c0_fn", f"torch.{f}({X}, {{correction=0}})", f"torch.{f}({XP}, correction=0)")
    case(f"{f}_dim_c2", f"torch.{f}({X}, 1, {{correction=2}})", f"torch.{f}({XP}, 1, correction=2)")
    case(f"{f}_dim_c0_keep", f"{X}:{f}(0, {{correction=0, keepdim=true}})", f"{XP}.{f}(0, correction=0, keepdim=True)")
    case(f"{f}_kw_dim_c0", f"torch.{f}({X}, {{dim=1, correction=0, keepdim=true}})",
         f"torch.{f}({XP}, dim=1, correction=0, keepdim=True)")
    case(f"{f}_dims_c0", f"{X}:{f}({{0, 1}}, {{correction=0}})", f"{XP}.{f}((0, 1), correction=0)")
    case(f"{f}_c_frac", f"{X}:{f}{{correction=1.5}}", f"{XP}.{f}(correction=1.5)")
    case(f"{f}_c_neg", f"{X}:{f}{{correction=-1}}", f"{XP}.{f}(correction=-1)")
    case(f"{f}_c_past_n", f"{X}:{f}(0, {{correction=5}})", f"{XP}.{f}(0, correction=5)")
    case(f"{f}_c1", f"{X}:{f}(1, {{correction=1}})", f"{XP}.{f}(1, correction=1)")
    case(f"{f}_unbiased_false", f"{X}:{f}{{unbiased=false}}", f"{XP}.{f}(unbiased=False)")
    case(f"{f}_unbiased_pos", f"torch.{f}({X}, 0, false, true)", f"torch.{f}({XP}, 0, False, True)")
    case(f"{f}_f64_c0", f"torch.{f}({X}:double(), 1, {{correction=0}})", f"torch.{f}({XP}.double(), 1, correction=0)")
    case(f"{f}_int_c0", f"torch.{f}(torch.tensor({{1, 2}}, {{device=D}}), {{correction=0}})",
         f"torch.{f}(torch.tensor([1, 2], device=D), correction=0)")
    # unbiased and correction are separate overloads in PyTorch: both is a TypeError
    case(f"{f}_both_kw", f"torch.{f}({X}, {{correction=1, unbiased=true}})", f"torch.{f}({XP}, correction=1, unbiased=True)")
    case(f"{f}_both_pos", f"torch.{f}({X}, 0, false, {{correction=1}})", f"torch.{f}({XP}, 0, False, correction=1)")
    G = "torch.tensor({{1., -5., 2.}, {4., 0., -3.}}, {requires_grad=true, device=D})"
    GP = "torch.tensor([[1., -5., 2.], [4., 0., -3.]], requires_grad=True, device=D)"
    for tag, c in (("c0", "0"), ("c2", "2")):
        case(f"grad_{f}_{tag}",
             f"(function() local x = {G}; local v = x:{f}(1, {{correction={c}}}); "
             f"(v * torch.arange(1., 3., {{device=D}})):sum():backward(); return v, x.grad end)()",
             f"(lambda x: (lambda v: ((v * torch.arange(1., 3., device=D)).sum().backward(), (v, x.grad))[1])"
             f"(x.{f}(1, correction={c})))({GP})")

# ---- round(decimals=): PyTorch's round_decimals kernel ----
R = "torch.tensor({1.2345, -2.5, 0.125, 1234.5678, -0.0051, 2.675, 1e10, 0/0, math.huge, -math.huge, 0.5, 1.5, -0.5}, {device=D})"
RP = "torch.tensor([1.2345, -2.5, 0.125, 1234.5678, -0.0051, 2.675, 1e10, nan, inf, -inf, 0.5, 1.5, -0.5], device=D)"
for d in (0, 1, 2, 3, 4, 10, 38, 39, 400, -1, -2, -3, -38, -39, -400):
    tag = f"m{-d}" if d < 0 else str(d)
    case(f"round_d{tag}", f"torch.round({R}, {{decimals={d}}})", f"torch.round({RP}, decimals={d})")
for dt in ("double", "half", "bfloat16"):
    for d in (2, -1, 0):
        tag = f"m{-d}" if d < 0 else str(d)
        case(f"round_{dt}_d{tag}", f"{R}:{dt}():round{{decimals={d}}}", f"{RP}.{dt}().round(decimals={d})")
case("round_method", f"{R}:round{{decimals=2}}", f"{RP}.round(decimals=2)")
case("round_mixed_table", f"torch.round{{{R}, decimals=-1}}", f"torch.round({RP}, decimals=-1)")
case("round_plain", f"torch.round({R})", f"torch.round({RP})")
case("round_inplace", f"(function() local x = {R}; assert(x:round_{{decimals=1}} == x); return x end)()",
     f"(lambda x: (x.round_(decimals=1), x)[1])({RP})")
case("round_inplace_neg", f"(function() local x = {R}:double(); x:round_{{decimals=-2}}; return x end)()",
     f"(lambda x: (x.round_(decimals=-2), x)[1])({RP}.double())")
case("round_2d", "torch.arange(12., {device=D}):reshape(3, 4):div(7):round{decimals=1}",
     "torch.arange(12., device=D).reshape(3, 4).div(7).round(decimals=1)")
for dt, lv, pv in (("int64", "{15, -25, 7}", "[15, -25, 7]"), ("bool", "{true, false}", "[True, False]")):
    for d in (1, 0):
        case(f"round_{dt}_d{d}", f"torch.round(torch.tensor({lv}, {{device=D}}), {{decimals={d}}})",
             f"torch.round(torch.tensor({pv}, device=D), decimals={d})")
case("round_int_plain", "torch.round(torch.tensor({15, -25}, {device=D}))", "torch.round(torch.tensor([15, -25], device=D))")
for d in (2, 0):
    case(f"grad_round_d{d}",
         f"(function() local x = torch.tensor({{1.234, -2.5}}, {{requires_grad=true, device=D}}); local z = x:round{{decimals={d}}}; "
         f"(z * 3):sum():backward(); return z, x.grad end)()",
         f"(lambda x: (lambda z: ((z * 3).sum().backward(), (z, x.grad))[1])(x.round(decimals={d})))"
         f"(torch.tensor([1.234, -2.5], requires_grad=True, device=D))")

# ---- any/all: uint8 gives uint8 (PyTorch keeps it for backward compatibility), the rest bool ----
U = "torch.tensor({{1, 0, 3}, {0, 0, 2}}, {dtype=torch.uint8, device=D})"
UP = "torch.tensor([[1, 0, 3], [0, 0, 2]], dtype=torch.uint8, device=D)"
for f in ("any", "all"):
    case(f"{f}_uint8", f"{U}:{f}()", f"{UP}.{f}()")
    case(f"{f}_uint8_dim", f"torch.{f}({U}, 1)", f"torch.{f}({UP}, 1)")
    case(f"{f}_uint8_keep", f"{U}:{f}(0, true)", f"{UP}.{f}(0, True)")
    case(f"{f}_uint8_empty", f"torch.{f}(torch.ones(0, 2, {{dtype=torch.uint8, device=D}}), 0)",
         f"torch.{f}(torch.ones(0, 2, dtype=torch.uint8, device=D), 0)")
    case(f"{f}_uint8_ones", f"torch.ones(4, {{dtype=torch.uint8, device=D}}):{f}()", f"torch.ones(4, dtype=torch.uint8, device=D).{f}()")
    case(f"{f}_int8", f"torch.tensor({{1, 0}}, {{dtype=torch.int8, device=D}}):{f}()", f"torch.tensor([1, 0], dtype=torch.int8, device=D).{f}()")
    case(f"{f}_float", f"torch.tensor({{1.5, 0.}}, {{device=D}}):{f}(0)", f"torch.tensor([1.5, 0.], device=D).{f}(0)")

# ---- masked_fill: its grad_fn (MaskedFillBackward0 with a number, 1 with a 0-d tensor) and gradients ----
MX = "torch.tensor({{1., -2., 3.}, {4., 5., -6.}}, {requires_grad=true, device=D})"
MXP = "torch.tensor([[1., -2., 3.], [4., 5., -6.]], requires_grad=True, device=D)"
MM = "torch.tensor({{true, false, true}, {false, false, true}}, {device=D})"
MMP = "torch.tensor([[True, False, True], [False, False, True]], device=D)"
W = "torch.arange(1., 7., {device=D}):reshape(2, 3)"
WP = "torch.arange(1., 7., device=D).reshape(2, 3)"
case("masked_fill_number", f"{MX}:masked_fill({MM}, 0.5)", f"{MXP}.masked_fill({MMP}, 0.5)")
case("masked_fill_fn", f"torch.masked_fill({MX}, {MM}, -1)", f"torch.masked_fill({MXP}, {MMP}, -1)")
case("masked_fill_grad_number",
     f"(function() local x = {MX}; local y = x:masked_fill({MM}, 7.); (y * {W}):sum():backward(); return y, x.grad end)()",
     f"(lambda x: (lambda y: ((y * {WP}).sum().backward(), (y, x.grad))[1])(x.masked_fill({MMP}, 7.)))({MXP})")
case("masked_fill_grad_tensor",
     f"(function() local x = {MX}; local v = torch.tensor(2., {{requires_grad=true, device=D}}); local y = x:masked_fill({MM}, v); "
     f"(y * {W}):sum():backward(); return y, x.grad, v.grad end)()",
     f"(lambda x, v: (lambda y: ((y * {WP}).sum().backward(), (y, x.grad, v.grad))[1])(x.masked_fill({MMP}, v)))"
     f"({MXP}, torch.tensor(2., requires_grad=True, device=D))")
case("masked_fill_grad_value_only",
     f"(function() local v = torch.tensor(3., {{requires_grad=true, device=D}}); local y = torch.zeros(2, 3, {{device=D}}):masked_fill({MM}, v); "
     f"(y * {W}):sum():backward(); return y, v.grad end)()",
     f"(lambda v: (lambda y: ((y * {WP}).sum().backward(), (y, v.grad))[1])(torch.zeros(2, 3, device=D).masked_fill({MMP}, v)))"
     f"(torch.tensor(3., requires_grad=True, device=D))")
case("masked_fill_grad_value_f64",
     f"(function() local x = {MX}; local v = torch.tensor(2., {{dtype=torch.float64, requires_grad=true, device=D}}); "
     f"local y = x:masked_fill({MM}, v); (y * {W}):sum():backward(); return y, x.grad, v.grad end)()",
     f"(lambda x, v: (lambda y: ((y * {WP}).sum().backward(), (y, x.grad, v.grad))[1])(x.masked_fill({MMP}, v)))"
     f"({MXP}, torch.tensor(2., dtype=torch.float64, requires_grad=True, device=D))")
case("masked_fill_grad_cpu_value",
     f"(function() local x = {MX}; local v = torch.tensor(2., {{requires_grad=true}}); local y = x:masked_fill({MM}, v); "
     f"(y * {W}):sum():backward(); return x.grad, v.grad end)()",
     f"(lambda x, v: (lambda y: ((y * {WP}).sum().backward(), (x.grad, v.grad))[1])(x.masked_fill({MMP}, v)))"
     f"({MXP}, torch.tensor(2., requires_grad=True))")
case("masked_fill_grad_broadcast",
     f"(function() local x = torch.tensor({{{{1.}}, {{2.}}}}, {{requires_grad=true, device=D}}); local y = x:masked_fill({MM}, 0); "
     f"(y * {W}):sum():backward(); return y, x.grad end)()",
     f"(lambda x: (lambda y: ((y * {WP}).sum().backward(), (y, x.grad))[1])(x.masked_fill({MMP}, 0)))"
     f"(torch.tensor([[1.], [2.]], requires_grad=True, device=D))")
case("masked_fill_grad_mask_row",
     f"(function() local x = {MX}; local y = x:masked_fill(torch.tensor({{false, true, false}}, {{device=D}}), 0.); "
     f"y:sum():backward(); return y, x.grad end)()",
     f"(lambda x: (lambda y: (y.sum().backward(), (y, x.grad))[1])(x.masked_fill(torch.tensor([False, True, False], device=D), 0.)))({MXP})")
case("masked_fill_1d_value", f"torch.zeros(3, {{device=D}}):masked_fill(torch.tensor({{true, false, true}}, {{device=D}}), torch.ones(3, {{device=D}}))",
     "torch.zeros(3, device=D).masked_fill(torch.tensor([True, False, True], device=D), torch.ones(3, device=D))")
case("masked_fill_int_float", "torch.zeros(3, {dtype=torch.int64, device=D}):masked_fill(torch.tensor({true, false, true}, {device=D}), 1.5)",
     "torch.zeros(3, dtype=torch.int64, device=D).masked_fill(torch.tensor([True, False, True], device=D), 1.5)")


def run_py(code):
    return repr_of(code, {"torch": torch, "nan": nan, "inf": inf, "D": "cpu"})


def main():
    write_expected("gen_op_options.py", "op_options_expected.lua", CASES, run_py)


if __name__ == "__main__":
    main()
