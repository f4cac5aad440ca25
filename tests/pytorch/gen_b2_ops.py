#!/usr/bin/env python3
# Needs PyTorch (CPU is enough). Writes tests/lua/b2_ops_expected.lua: for each
# case, the gpulab (Lua) code and what PyTorch prints for the same call (its
# repr, or "Kind: message" for an error). tests/lua/test_b2_ops.lua runs each
# case on the CPU and on a virtual CUDA device and compares the echo.
#   python3 tests/pytorch/gen_b2_ops.py
import math, os, sys
import torch

nan, inf = math.nan, math.inf

# (name, Lua code with D for the device string, Python code with D likewise)
CASES = []
def case(name, lua, py=None):
    CASES.append((name, lua, py if py is not None else lua))

V = "torch.tensor({3., 1., 2., 1., 3., 0/0, 2., 1.}, {device=D})"
VP = "torch.tensor([3., 1., 2., 1., 3., nan, 2., 1.], device=D)"
M = "torch.tensor({{1., 5., 2., 5.}, {4., 0., 3., 0.}, {2., 2., 7., 1.}}, {device=D})"
MP = "torch.tensor([[1., 5., 2., 5.], [4., 0., 3., 0.], [2., 2., 7., 1.]], device=D)"
I = "torch.tensor({{3, 1, 2, 2, 1, 3}, {5, 5, 4, 4, 4, 0}}, {device=D})"
IP = "torch.tensor([[3, 1, 2, 2, 1, 3], [5, 5, 4, 4, 4, 0]], device=D)"
L = "torch.arange(70, {device=D}):remainder(7)"  # topk's partial_sort path: k * 64 <= 70
LP = "torch.arange(70, device=D).remainder(7)"

def both(name, lua_call, py_call):
    """lua_call/py_call use {x} for the tensor."""
    for tag, lx, px in (("v", V, VP), ("m", M, MP), ("i", I, IP)):
        case(f"{name}_{tag}", lua_call.replace("{x}", lx), py_call.replace("{x}", px))

# ---- group 1: sorting and selection ----
both("sort", "torch.sort({x})", "torch.sort({x})")
both("sort_desc", "torch.sort({x}, {descending=true})", "torch.sort({x}, descending=True)")
both("sort_dim0", "{x}:sort(0, true)", "{x}.sort(0, True)")
both("argsort", "torch.argsort({x}, {descending=true, stable=true})", "torch.argsort({x}, descending=True, stable=True)")
both("topk2", "torch.topk({x}, 2)", "torch.topk({x}, 2)")
both("topk_small", "{x}:topk(2, {largest=false})", "{x}.topk(2, largest=False)")
both("topk_dim0", "torch.topk({x}, 1, 0)", "torch.topk({x}, 1, 0)")
both("kthvalue", "torch.kthvalue({x}, 2)", "torch.kthvalue({x}, 2)")
both("kthvalue0", "torch.kthvalue({x}, 1, 0, true)", "torch.kthvalue({x}, 1, 0, True)")
both("median", "torch.median({x})", "torch.median({x})")
both("median_dim", "{x}:median(-1)", "{x}.median(-1)")
both("median_dim0", "torch.median({x}, 0, {keepdim=true})", "torch.median({x}, 0, keepdim=True)")
both("mode", "torch.mode({x})", "torch.mode({x})")
both("mode0", "torch.mode({x}, 0)", "torch.mode({x}, 0)")
both("unique", "torch.unique({x})", "torch.unique({x})")
both("unique_all", "torch.unique({x}, {return_inverse=true, return_counts=true})", "torch.unique({x}, return_inverse=True, return_counts=True)")
case("topk_partial", f"torch.topk({L}, 1)", f"torch.topk({LP}, 1)")
case("topk_partial_small", f"torch.topk({L}, 1, {{largest=false}})", f"torch.topk({LP}, 1, largest=False)")
case("topk_unsorted", f"torch.topk({L}, 9, {{sorted=false}})", f"torch.topk({LP}, 9, sorted=False)")
case("mode_long", f"torch.mode({L})", f"torch.mode({LP})")
case("kth_long", f"torch.kthvalue({L}, 30)", f"torch.kthvalue({LP}, 30)")
case("median_long", f"torch.median({L}, 0)", f"torch.median({LP}, 0)")
case("sort_0d", "torch.sort(torch.tensor(5., {device=D}))", "torch.sort(torch.tensor(5., device=D))")
case("topk_0d", "torch.topk(torch.tensor(5., {device=D}), 1)", "torch.topk(torch.tensor(5., device=D), 1)")
case("mode_0d", "torch.mode(torch.tensor(5, {device=D}))", "torch.mode(torch.tensor(5, device=D))")
case("sort_empty", "torch.sort(torch.ones(2, 0, {device=D}), 1)", "torch.sort(torch.ones(2, 0, device=D), 1)")
case("topk_k0", "torch.topk(torch.ones(2, 3, {device=D}), 0)", "torch.topk(torch.ones(2, 3, device=D), 0)")
case("unique_empty", "torch.unique(torch.ones(0, {device=D}), {return_counts=true})", "torch.unique(torch.ones(0, device=D), return_counts=True)")
case("median_empty", "torch.median(torch.ones(0, {device=D}))", "torch.median(torch.ones(0, device=D))")
for dt in ("float16", "bfloat16", "float64", "int32", "uint8", "int8", "int16"):
    case(f"sort_{dt}", f"torch.sort(torch.tensor({{3, 1, 2, 1}}, {{dtype=torch.{dt}, device=D}}))",
         f"torch.sort(torch.tensor([3, 1, 2, 1], dtype=torch.{dt}, device=D))")
    case(f"topk_{dt}", f"torch.topk(torch.tensor({{3, 1, 2, 1}}, {{dtype=torch.{dt}, device=D}}), 2)",
         f"torch.topk(torch.tensor([3, 1, 2, 1], dtype=torch.{dt}, device=D), 2)")
    case(f"median_{dt}", f"torch.median(torch.tensor({{3, 1, 2, 1}}, {{dtype=torch.{dt}, device=D}}), 0)",
         f"torch.median(torch.tensor([3, 1, 2, 1], dtype=torch.{dt}, device=D), 0)")
    case(f"unique_{dt}", f"torch.unique(torch.tensor({{3, 1, 2, 1}}, {{dtype=torch.{dt}, device=D}}), {{return_counts=true}})",
         f"torch.unique(torch.tensor([3, 1, 2, 1], dtype=torch.{dt}, device=D), return_counts=True)")
B = "torch.tensor({true, false, true}, {device=D})"
BP = "torch.tensor([True, False, True], device=D)"
case("sort_bool", f"torch.sort({B})", f"torch.sort({BP})")
case("mode_bool", f"torch.mode({B})", f"torch.mode({BP})")
case("unique_bool", f"torch.unique({B}, {{return_inverse=true}})", f"torch.unique({BP}, return_inverse=True)")
case("topk_bool", f"torch.topk({B}, 1)", f"torch.topk({BP}, 1)")
case("kth_bool", f"torch.kthvalue({B}, 1)", f"torch.kthvalue({BP}, 1)")
case("median_bool", f"torch.median({B})", f"torch.median({BP})")
case("median_dim_bool", f"torch.median({B}, 0)", f"torch.median({BP}, 0)")
# errors
case("topk_k_big", f"torch.topk({M}, 5)", f"torch.topk({MP}, 5)")
case("topk_k_neg", f"torch.topk({M}, -1)", f"torch.topk({MP}, -1)")
case("kth_k_big", f"torch.kthvalue({M}, 5)", f"torch.kthvalue({MP}, 5)")
case("kth_k0", f"torch.kthvalue({M}, 0)", f"torch.kthvalue({MP}, 0)")
case("kth_empty", "torch.kthvalue(torch.ones(0, {device=D}), 1)", "torch.kthvalue(torch.ones(0, device=D), 1)")
case("median_dim_empty", "torch.median(torch.ones(2, 0, {device=D}), 1)", "torch.median(torch.ones(2, 0, device=D), 1)")
case("mode_empty", "torch.mode(torch.ones(0, {device=D}))", "torch.mode(torch.ones(0, device=D))")
case("sort_dim_out", f"torch.sort({M}, 2)", f"torch.sort({MP}, 2)")
# autograd: the grad_fn names and the gradients
G = "torch.tensor({{1., 5., 2.}, {4., 0., 3.}}, {requires_grad=true, device=D})"
GP = "torch.tensor([[1., 5., 2.], [4., 0., 3.]], requires_grad=True, device=D)"
for nm, lua, py in (("sort", "torch.sort(x, 1, true)", "torch.sort(x, 1, True)"), ("topk", "torch.topk(x, 2)", "torch.topk(x, 2)"),
                    ("kthvalue", "torch.kthvalue(x, 2, 0)", "torch.kthvalue(x, 2, 0)"), ("median_dim", "torch.median(x, 1)", "torch.median(x, 1)"),
                    ("mode", "torch.mode(x, 1, true)", "torch.mode(x, 1, True)"), ("median", "torch.median(x)", "torch.median(x)")):
    case(f"grad_{nm}", f"(function() local x = {G}; local v = {lua}; (v * torch.arange(1., v:numel() + 1, {{device=D}}):reshape(v.shape)):sum():backward(); return v, x.grad end)()",
         f"(lambda x: (lambda v: ((v * torch.arange(1., v.numel() + 1, device=D).reshape(v.shape)).sum().backward(), (v, x.grad))[1])({py}[0] if isinstance({py}, tuple) else {py}))({GP})")
case("grad_unique", f"torch.unique({G})", f"torch.unique({GP})")


def run_py(code):
    D = "cpu"
    try:
        r = eval(code, {"torch": torch, "nan": nan, "inf": inf, "D": D})
    except Exception as e:
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"
    if isinstance(r, tuple) and type(r).__module__ != "torch.return_types":
        return "\n".join(repr(e) for e in r)
    return repr(r)


def lua_str(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lua", "b2_ops_expected.lua")
    lines = ["-- Generated by tests/pytorch/gen_b2_ops.py from PyTorch " + torch.__version__.split("+")[0] + ": do not edit.",
             "-- {name, gpulab code (D: the device), what PyTorch prints}", "return {"]
    for name, lua, py in CASES:
        lines.append(f"  {{{lua_str(name)}, {lua_str(lua)}, {lua_str(run_py(py))}}},")
    lines.append("}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(CASES)} cases -> {os.path.normpath(out)}")


if __name__ == "__main__":
    main()
