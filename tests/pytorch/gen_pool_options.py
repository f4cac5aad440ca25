#!/usr/bin/env python3
"""Expected values for tests/lua/test_pool_options.lua, from a real PyTorch (needs torch, CPU is enough).

max_pool2d(return_indices=True) and nn.MaxPool2d{return_indices=true}, avg_pool2d(divisor_override=),
pooling in float64, their gradients and errors. Each case pairs gpulab Lua code (D: the device) with
PyTorch code; the script writes what PyTorch prints (or "ErrorType: message") into
tests/lua/pool_options_expected.lua.

    python3 tests/pytorch/gen_pool_options.py
"""

import torch
from expected_cases import write_expected
import torch.nn.functional as F
from torch import nn

X = "torch.arange(2 * 5 * 6, {dtype=torch.%s, device=D}):reshape(1, 2, 5, 6):sin()"
XP = "torch.arange(2 * 5 * 6, dtype=torch.%s).reshape(1, 2, 5, 6).sin()"
CASES = []


def case(name, lua, py):
    CASES.append((name, lua, py))


for dt in ("float32", "float64"):
    x, xp = X % dt, XP % dt
    case(f"max_idx_{dt}", f"F.max_pool2d({x}, 2, {{return_indices=true}})", f"F.max_pool2d({xp}, 2, return_indices=True)")
    case(f"max_idx_pad_{dt}", f"F.max_pool2d({x}, 3, {{stride=2, padding=1, return_indices=true}})",
         f"F.max_pool2d({xp}, 3, stride=2, padding=1, return_indices=True)")
    case(f"max_idx_dil_ceil_{dt}", f"F.max_pool2d({x}, 2, {{stride=2, dilation=2, ceil_mode=true, return_indices=true}})",
         f"F.max_pool2d({xp}, 2, stride=2, dilation=2, ceil_mode=True, return_indices=True)")
    case(f"max_idx_3d_{dt}", f"F.max_pool2d({x}[0], {{2, 3}}, {{return_indices=true}})",
         f"F.max_pool2d({xp}[0], (2, 3), return_indices=True)")
    case(f"max_{dt}", f"F.max_pool2d({x}, 3, {{stride=2, padding=1}})", f"F.max_pool2d({xp}, 3, stride=2, padding=1)")
    case(f"avg_{dt}", f"F.avg_pool2d({x}, 3, {{stride=2, padding=1}})", f"F.avg_pool2d({xp}, 3, stride=2, padding=1)")
    case(f"avg_excl_{dt}", f"F.avg_pool2d({x}, 3, {{stride=2, padding=1, count_include_pad=false}})",
         f"F.avg_pool2d({xp}, 3, stride=2, padding=1, count_include_pad=False)")
    case(f"avg_ceil_{dt}", f"F.avg_pool2d({x}, 2, {{ceil_mode=true}})", f"F.avg_pool2d({xp}, 2, ceil_mode=True)")
    case(f"avg_div_{dt}", f"F.avg_pool2d({x}, 2, {{divisor_override=3}})", f"F.avg_pool2d({xp}, 2, divisor_override=3)")
    # ceil_mode's last window past the padding: divided by the window cut at the padding's end
    case(f"avg_ceil_pad_{dt}", f"F.avg_pool2d({x}, 3, {{stride=2, padding=1, ceil_mode=true}})",
         f"F.avg_pool2d({xp}, 3, stride=2, padding=1, ceil_mode=True)")
    case(f"avg_ceil_pad2_{dt}", f"F.avg_pool2d({x}, 2, {{stride=2, padding=1, ceil_mode=true}})",
         f"F.avg_pool2d({xp}, 2, stride=2, padding=1, ceil_mode=True)")
    case(f"avg_div_pad_{dt}", f"F.avg_pool2d({x}, 3, {{stride=2, padding=1, ceil_mode=true, divisor_override=2}})",
         f"F.avg_pool2d({xp}, 3, stride=2, padding=1, ceil_mode=True, divisor_override=2)")
    # gradients: the input's grad after backward of a weighted sum
    for nm, lua_call, py_call in (
            ("max", "F.max_pool2d(x, 3, {stride=2, padding=1, return_indices=true})", "F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)[0]"),
            ("maxplain", "F.max_pool2d(x, 2)", "F.max_pool2d(x, 2)"),
            ("avg", "F.avg_pool2d(x, 3, {stride=2, padding=1, count_include_pad=false})", "F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False)"),
            ("div", "F.avg_pool2d(x, 2, {divisor_override=3})", "F.avg_pool2d(x, 2, divisor_override=3)")):
        case(f"grad_{nm}_{dt}",
             f"(function() local x = ({x}):requires_grad_(); local y = {lua_call}; "
             f"(y * torch.arange(y:numel(), {{dtype=y.dtype, device=D}}):reshape(y.shape)):sum():backward(); return x.grad end)()",
             f"(lambda x: (lambda y: ((y * torch.arange(y.numel(), dtype=y.dtype).reshape(y.shape)).sum().backward(), x.grad)[1])({py_call}))({xp}.requires_grad_())")
    case(f"grad_fn_{dt}", f"F.max_pool2d(({x}):requires_grad_(), 2, {{return_indices=true}}).grad_fn:name()",
         f"F.max_pool2d({xp}.requires_grad_(), 2, return_indices=True)[0].grad_fn.name()")
    case(f"grad_fn_avg_{dt}", f"F.avg_pool2d(({x}):requires_grad_(), 2).grad_fn:name()",
         f"F.avg_pool2d({xp}.requires_grad_(), 2).grad_fn.name()")
case("module_idx", f"nn.MaxPool2d(2, {{return_indices=true}})({X % 'float32'})",
     f"nn.MaxPool2d(2, return_indices=True)({XP % 'float32'})")
case("module_div", f"nn.AvgPool2d(2, {{divisor_override=5}})({X % 'float32'})", f"nn.AvgPool2d(2, divisor_override=5)({XP % 'float32'})")
case("div_zero", f"F.avg_pool2d({X % 'float32'}, 2, {{divisor_override=0}})", f"F.avg_pool2d({XP % 'float32'}, 2, divisor_override=0)")
case("idx_int", "F.max_pool2d(torch.ones(1, 2, 4, 4, {dtype=torch.int64, device=D}), 2, {return_indices=true})",
     "F.max_pool2d(torch.ones(1, 2, 4, 4, dtype=torch.int64), 2, return_indices=True)")


def run_py(code):
    try:
        v = eval(code)
    except Exception as e:  # noqa: BLE001 - the error text is the expected value
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"
    if isinstance(v, tuple):
        return "\n".join(str(t) for t in v)
    return str(v)


write_expected("gen_pool_options.py", "pool_options_expected.lua", CASES, run_py)
