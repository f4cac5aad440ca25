#!/usr/bin/env python3
# Needs PyTorch (CPU is enough). Writes tests/lua/b2_ops_expected.lua: for each
# case, the gpulab (Lua) code and what PyTorch prints for the same call (its
# repr, or "Kind: message" for an error). tests/lua/test_b2_ops.lua runs each
# case on the CPU and on a virtual CUDA device and compares the echo.
#   python3 tests/pytorch/gen_b2_ops.py
import math
import torch
from expected_cases import repr_of, write_expected

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
# unique(dim=): distinct slices in lexicographic order
UD = "torch.tensor({{2., 1.}, {1., 3.}, {2., 0.}, {1., 3.}}, {device=D})"
UDP = "torch.tensor([[2., 1.], [1., 3.], [2., 0.], [1., 3.]], device=D)"
case("unique_dim0", f"torch.unique({UD}, {{dim=0, return_inverse=true, return_counts=true}})", f"torch.unique({UDP}, dim=0, return_inverse=True, return_counts=True)")
case("unique_dim1", f"torch.unique({UD}, {{dim=1, return_inverse=true, return_counts=true}})", f"torch.unique({UDP}, dim=1, return_inverse=True, return_counts=True)")
case("unique_dim_3d", "torch.unique(torch.arange(24, {device=D}):reshape(2, 3, 4) % 3, {dim=2, return_inverse=true})", "torch.unique(torch.arange(24, device=D).reshape(2, 3, 4) % 3, dim=2, return_inverse=True)")
case("unique_dim_int", f"{I}:unique({{dim=1, return_counts=true}})", f"{IP}.unique(dim=1, return_counts=True)")
case("unique_dim_empty", "torch.unique(torch.zeros(0, 2, {device=D}), {dim=0, return_inverse=true, return_counts=true})", "torch.unique(torch.zeros(0, 2, device=D), dim=0, return_inverse=True, return_counts=True)")
case("unique_dim_zero_other", "torch.unique(torch.zeros(2, 0, {device=D}), {dim=0})", "torch.unique(torch.zeros(2, 0, device=D), dim=0)")
case("unique_dim_two_zero", "torch.unique(torch.zeros(0, 0, {device=D}), {dim=0})", "torch.unique(torch.zeros(0, 0, device=D), dim=0)")
case("unique_dim_scalar", "torch.unique(torch.tensor(3., {device=D}), {dim=0})", "torch.unique(torch.tensor(3., device=D), dim=0)")
case("unique_dim_grad", f"torch.unique({G}, {{dim=0}})", f"torch.unique({GP}, dim=0)")

# ---- group 2: shapes, triangles, diagonals, products, grids ----
A = "torch.arange(12., {device=D}):reshape(3, 4)"
AP = "torch.arange(12., device=D).reshape(3, 4)"
AI = "torch.arange(12, {device=D}):reshape(3, 4)"
AIP = "torch.arange(12, device=D).reshape(3, 4)"
for k in (0, 1, -1, 5):
    case(f"tril{k}", f"torch.tril({A}, {k})", f"torch.tril({AP}, {k})")
    case(f"triu{k}", f"{A}:triu({k})", f"{AP}.triu({k})")
case("tril_batch", "torch.tril(torch.ones(2, 2, 3, {dtype=torch.int32, device=D}))", "torch.tril(torch.ones(2, 2, 3, dtype=torch.int32, device=D))")
case("triu_bool", "torch.triu(torch.ones(2, 3, {dtype=torch.bool, device=D}), {diagonal=1})", "torch.triu(torch.ones(2, 3, dtype=torch.bool, device=D), diagonal=1)")
case("tril_1d", "torch.tril(torch.ones(3, {device=D}))", "torch.tril(torch.ones(3, device=D))")
for k in (0, 1, -2, 9):
    case(f"diag2d_{k}", f"torch.diag({AI}, {k})", f"torch.diag({AIP}, {k})")
case("diag1d", "torch.diag(torch.tensor({1., 2., 3.}, {device=D}))", "torch.diag(torch.tensor([1., 2., 3.], device=D))")
case("diag1d_k", "torch.tensor({1, 2}, {device=D}):diag(-1)", "torch.tensor([1, 2], device=D).diag(-1)")
case("diag_3d", "torch.diag(torch.ones(2, 2, 2, {device=D}))", "torch.diag(torch.ones(2, 2, 2, device=D))")
case("trace", f"torch.trace({A})", f"torch.trace({AP})")
case("trace_int8", "torch.trace(torch.ones(2, 3, {dtype=torch.int8, device=D}))", "torch.trace(torch.ones(2, 3, dtype=torch.int8, device=D))")
case("trace_1d", "torch.trace(torch.ones(3, {device=D}))", "torch.trace(torch.ones(3, device=D))")
case("trace_bool", "torch.trace(torch.ones(2, 2, {dtype=torch.bool, device=D}))", "torch.trace(torch.ones(2, 2, dtype=torch.bool, device=D))")
case("outer", "torch.outer(torch.tensor({1., 2.}, {device=D}), torch.tensor({1., 10., 100.}, {device=D}))",
     "torch.outer(torch.tensor([1., 2.], device=D), torch.tensor([1., 10., 100.], device=D))")
case("outer_promote", "torch.tensor({1, 2}, {device=D}):outer(torch.tensor({1.5}, {device=D}))", "torch.tensor([1, 2], device=D).outer(torch.tensor([1.5], device=D))")
case("outer_2d", f"torch.outer({A}, torch.ones(2, {{device=D}}))", f"torch.outer({AP}, torch.ones(2, device=D))")
case("mv", f"torch.mv({A}, torch.tensor({{1., 0., -1., 2.}}, {{device=D}}))", f"torch.mv({AP}, torch.tensor([1., 0., -1., 2.], device=D))")
case("mv_int", f"{AI}:mv(torch.tensor({{1, 0, -1, 2}}, {{device=D}}))", f"{AIP}.mv(torch.tensor([1, 0, -1, 2], device=D))")
case("mv_bad", f"torch.mv({A}, {A})", f"torch.mv({AP}, {AP})")
case("mv_size", f"torch.mv({A}, torch.ones(3, {{device=D}}))", f"torch.mv({AP}, torch.ones(3, device=D))")
case("ri_int", "torch.repeat_interleave(torch.tensor({{1, 2}, {3, 4}}, {device=D}), 2)", "torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]], device=D), 2)")
case("ri_dim", "torch.tensor({{1, 2}, {3, 4}}, {device=D}):repeat_interleave(3, {dim=1})", "torch.tensor([[1, 2], [3, 4]], device=D).repeat_interleave(3, dim=1)")
case("ri_tensor", "torch.repeat_interleave(torch.tensor({{1, 2}, {3, 4}}, {device=D}), torch.tensor({1, 2}, {device=D}), {dim=0})",
     "torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]], device=D), torch.tensor([1, 2], device=D), dim=0)")
case("ri_counts", "torch.repeat_interleave(torch.tensor({2, 0, 3}, {device=D}))", "torch.repeat_interleave(torch.tensor([2, 0, 3], device=D))")
case("ri_neg", "torch.repeat_interleave(torch.ones(2, {device=D}), -1)", "torch.repeat_interleave(torch.ones(2, device=D), -1)")
case("ri_size", "torch.repeat_interleave(torch.ones(2, {device=D}), torch.tensor({1, 2, 3}, {device=D}), {dim=0})",
     "torch.repeat_interleave(torch.ones(2, device=D), torch.tensor([1, 2, 3], device=D), dim=0)")
case("logspace", "torch.logspace(0, 2, 3, {device=D})", "torch.logspace(0, 2, 3, device=D)")
case("logspace_base", "torch.logspace(-1, 3, 5, 2, {device=D})", "torch.logspace(-1, 3, 5, 2, device=D)")
case("logspace_f64", "torch.logspace(0., 1., 5, {dtype=torch.float64, device=D})", "torch.logspace(0., 1., 5, dtype=torch.float64, device=D)")
# every value of a sweep, to the bit (tolist): PyTorch's kernel step by step
for i, (a, b, n, base) in enumerate([(-1, 1, 7, 10), (0, 3, 50, 2), (-2.5, 4.1, 33, 10), (0.1, 0.9, 100, 2.718281828459045),
                                     (-10, 10, 101, 1.5), (1, 2, 169, 3)]):
    for dt in ("float32", "float64"):
        case(f"logspace_sweep{i}_{dt}", f"torch.logspace({a}, {b}, {n}, {base}, {{dtype=torch.{dt}, device=D}}):tolist()",
             f"torch.logspace({a}, {b}, {n}, {base}, dtype=torch.{dt}, device=D).tolist()")
case("logspace_int", "torch.logspace(0.5, 3.7, 4, {dtype=torch.int64, device=D})", "torch.logspace(0.5, 3.7, 4, dtype=torch.int64, device=D)")
case("logspace_half", "torch.logspace(-1.3, 2.2, 6, {dtype=torch.float16, device=D}):tolist()", "torch.logspace(-1.3, 2.2, 6, dtype=torch.float16, device=D).tolist()")
case("logspace_one", "torch.logspace(0.3, 9, 1, {device=D}):tolist()", "torch.logspace(0.3, 9, 1, device=D).tolist()")
case("meshgrid_ij", "torch.meshgrid(torch.tensor({1, 2}, {device=D}), torch.tensor({3, 4, 5}, {device=D}), {indexing='ij'})",
     "torch.meshgrid(torch.tensor([1, 2], device=D), torch.tensor([3, 4, 5], device=D), indexing='ij')")
case("meshgrid_xy", "torch.meshgrid({torch.tensor({1, 2}, {device=D}), torch.tensor({3, 4, 5}, {device=D})}, {indexing='xy'})",
     "torch.meshgrid([torch.tensor([1, 2], device=D), torch.tensor([3, 4, 5], device=D)], indexing='xy')")
case("meshgrid_3", "torch.meshgrid(torch.tensor({1., 2.}, {device=D}), torch.tensor({3.}, {device=D}), torch.tensor({4., 5.}, {device=D}), {indexing='xy'})",
     "torch.meshgrid(torch.tensor([1., 2.], device=D), torch.tensor([3.], device=D), torch.tensor([4., 5.], device=D), indexing='xy')")
case("meshgrid_bad", "torch.meshgrid(torch.ones(2, {device=D}), {indexing='foo'})", "torch.meshgrid(torch.ones(2, device=D), indexing='foo')")
case("flatten_fn", f"torch.flatten({A})", f"torch.flatten({AP})")
case("flatten_fn_dims", "torch.flatten(torch.ones(2, 3, 4, {device=D}), 1).shape", "torch.flatten(torch.ones(2, 3, 4, device=D), 1).shape")
case("unflatten", f"torch.unflatten({A}, 1, {{2, 2}})", f"torch.unflatten({AP}, 1, (2, 2))")
case("unflatten_infer", f"{A}:unflatten(0, {{-1, 1}}).shape", f"{AP}.unflatten(0, (-1, 1)).shape")
case("unflatten_bad", f"torch.unflatten({A}, 1, {{3, 2}})", f"torch.unflatten({AP}, 1, (3, 2))")
case("swapaxes", f"torch.swapaxes({A}, 0, 1)", f"torch.swapaxes({AP}, 0, 1)")
case("swapdims", f"{A}:swapdims(-1, 0)", f"{AP}.swapdims(-1, 0)")
case("transpose_fn", f"torch.transpose({A}, 0, 1)", f"torch.transpose({AP}, 0, 1)")
case("unsqueeze_fn", f"torch.unsqueeze({A}, 1).shape", f"torch.unsqueeze({AP}, 1).shape")
case("squeeze_fn", "torch.squeeze(torch.ones(1, 2, 1, {device=D})).shape", "torch.squeeze(torch.ones(1, 2, 1, device=D)).shape")
case("squeeze_tuple", "torch.squeeze(torch.ones(1, 2, 1, 1, {device=D}), {0, 2}).shape", "torch.squeeze(torch.ones(1, 2, 1, 1, device=D), (0, 2)).shape")
case("squeeze_tuple_method", "torch.ones(1, 2, 1, {device=D}):squeeze({-1, 1}).shape", "torch.ones(1, 2, 1, device=D).squeeze((-1, 1)).shape")
case("squeeze_dup", "torch.ones(1, 2, {device=D}):squeeze({0, 0})", "torch.ones(1, 2, device=D).squeeze((0, 0))")
case("t_fn", f"torch.t({A})", f"torch.t({AP})")
case("permute_fn", "torch.permute(torch.ones(2, 3, 4, {device=D}), {2, 0, 1}).shape", "torch.permute(torch.ones(2, 3, 4, device=D), (2, 0, 1)).shape")
case("reshape_fn", f"torch.reshape({A}, {{2, 6}})", f"torch.reshape({AP}, (2, 6))")
case("narrow_fn", f"torch.narrow({A}, 1, 1, 2)", f"torch.narrow({AP}, 1, 1, 2)")
case("select_fn", f"torch.select({A}, 0, 1)", f"torch.select({AP}, 0, 1)")
case("chunk_fn", f"table.unpack(torch.chunk({A}, 2, 1))", f"torch.chunk({AP}, 2, 1)")
case("split_fn", f"table.unpack(torch.split({A}, 2))", f"torch.split({AP}, 2)")
case("unbind_fn", f"table.unpack(torch.unbind({A}, 1))", f"torch.unbind({AP}, 1)")
case("clone_fn", f"torch.clone({A})", f"torch.clone({AP})")
for nm in ("amax", "amin"):
    case(f"{nm}_tuple", f"torch.{nm}(torch.tensor({{{{{{1., 5.}}, {{4., 2.}}}}, {{{{0., 7.}}, {{3., 3.}}}}}}, {{device=D}}), {{0, 2}})",
         f"torch.{nm}(torch.tensor([[[1., 5.], [4., 2.]], [[0., 7.], [3., 3.]]], device=D), (0, 2))")
    case(f"{nm}_tuple_keep", f"{AI}:{nm}({{1, 0}}, true)", f"{AIP}.{nm}((1, 0), True)")
    case(f"{nm}_empty_dims", f"torch.{nm}({A}, {{}})", f"torch.{nm}({AP}, ())")
    case(f"{nm}_dup", f"torch.{nm}({A}, {{1, -1}})", f"torch.{nm}({AP}, (1, -1))")
# autograd of group 2
G2 = "torch.tensor({{1., 5., 2.}, {5., 0., 3.}, {2., 2., 5.}}, {requires_grad=true, device=D})"
G2P = "torch.tensor([[1., 5., 2.], [5., 0., 3.], [2., 2., 5.]], requires_grad=True, device=D)"
for nm, lua, py in (("tril", "torch.tril(x, -1)", "torch.tril(x, -1)"), ("triu", "torch.triu(x)", "torch.triu(x)"),
                    ("diag2", "torch.diag(x, 1)", "torch.diag(x, 1)"), ("diag1", "torch.diag(x[0])", "torch.diag(x[0])"),
                    ("trace", "torch.trace(x)", "torch.trace(x)"), ("outer", "torch.outer(x[0], x[1])", "torch.outer(x[0], x[1])"),
                    ("mv", "torch.mv(x, x[2])", "torch.mv(x, x[2])"), ("ri", "torch.repeat_interleave(x, 2)", "torch.repeat_interleave(x, 2)"),
                    ("ri_t", "torch.repeat_interleave(x, torch.tensor({0, 1, 2}, {device=D}), {dim=1})", "torch.repeat_interleave(x, torch.tensor([0, 1, 2], device=D), dim=1)"),
                    ("amax", "torch.amax(x, {0, 1})", "torch.amax(x, (0, 1))"), ("amin", "torch.amin(x, {1, 0}, true)", "torch.amin(x, (1, 0), True)"),
                    ("squeeze", "torch.squeeze(x:reshape(1, 9, 1), {0, 2})", "torch.squeeze(x.reshape(1, 9, 1), (0, 2))"),
                    ("unflatten", "torch.unflatten(x, 1, {3, 1})", "torch.unflatten(x, 1, (3, 1))"),
                    ("swapaxes", "torch.swapaxes(x, 0, 1)", "torch.swapaxes(x, 0, 1)")):
    case(f"grad_{nm}", f"(function() local x = {G2}; local v = {lua}; (v * torch.arange(1., v:numel() + 1, {{device=D}}):reshape(v.shape)):sum():backward(); return v, x.grad end)()",
         f"(lambda x: (lambda v: ((v * torch.arange(1., v.numel() + 1, device=D).reshape(v.shape)).sum().backward(), (v, x.grad))[1])({py}))({G2P})")

# ---- group 3: logsumexp, norms, one_hot, einsum ----
X = "torch.tensor({{1., -5., 2.}, {4., 0., -3.}}, {device=D})"
XP = "torch.tensor([[1., -5., 2.], [4., 0., -3.]], device=D)"
case("lse", f"torch.logsumexp({X}, 1)", f"torch.logsumexp({XP}, 1)")
case("lse_dims", f"{X}:logsumexp({{0, 1}}, true)", f"{XP}.logsumexp((0, 1), True)")
case("lse_big", "torch.logsumexp(torch.tensor({{1., 2.}, {1000., 1000.}}, {device=D}), 1)", "torch.logsumexp(torch.tensor([[1., 2.], [1000., 1000.]], device=D), 1)")
case("lse_ninf", "torch.logsumexp(torch.tensor({-1/0, -1/0}, {device=D}), 0)", "torch.logsumexp(torch.tensor([-inf, -inf], device=D), 0)")
case("lse_int", "torch.logsumexp(torch.tensor({1, 2, 3}, {device=D}), 0)", "torch.logsumexp(torch.tensor([1, 2, 3], device=D), 0)")
case("lse_f64", "torch.logsumexp(torch.tensor({1, 2, 3}, {dtype=torch.float64, device=D}), -1)", "torch.logsumexp(torch.tensor([1, 2, 3], dtype=torch.float64, device=D), -1)")
for o_l, o_p in (("2", "2"), ("1", "1"), ("3", "3"), ("0", "0"), ("math.huge", "inf"), ("-math.huge", "-inf"), ("0.5", "0.5")):
    tag = o_p.replace("-", "m").replace(".", "_")
    case(f"vnorm_{tag}", f"torch.linalg.vector_norm({X}, {o_l})", f"torch.linalg.vector_norm({XP}, {o_p})")
    case(f"vnorm_dim_{tag}", f"torch.linalg.vector_norm({X}, {o_l}, 1)", f"torch.linalg.vector_norm({XP}, {o_p}, 1)")
case("vnorm_keep", f"torch.linalg.vector_norm({X}, {{dim={{0, 1}}, keepdim=true}})", f"torch.linalg.vector_norm({XP}, dim=(0, 1), keepdim=True)")
case("vnorm_int", "torch.linalg.vector_norm(torch.tensor({3, 4}, {device=D}))", "torch.linalg.vector_norm(torch.tensor([3, 4], device=D))")
case("vnorm_dtype", "torch.linalg.vector_norm(torch.tensor({3, 4}, {device=D}), {dtype=torch.float64})", "torch.linalg.vector_norm(torch.tensor([3, 4], device=D), dtype=torch.float64)")
for o_l, o_p in (("'fro'", "'fro'"), ("1", "1"), ("-1", "-1"), ("math.huge", "inf"), ("-math.huge", "-inf")):
    tag = o_p.replace("-", "m").replace("'", "")
    case(f"mnorm_{tag}", f"torch.linalg.matrix_norm({X}, {o_l})", f"torch.linalg.matrix_norm({XP}, {o_p})")
case("mnorm_batch", "torch.linalg.matrix_norm(torch.arange(8., {device=D}):reshape(2, 2, 2), 1, {dim={0, 2}})", "torch.linalg.matrix_norm(torch.arange(8., device=D).reshape(2, 2, 2), 1, dim=(0, 2))")
case("mnorm_keep", f"torch.linalg.matrix_norm({X}, {{keepdim=true}})", f"torch.linalg.matrix_norm({XP}, keepdim=True)")
case("mnorm_1d", "torch.linalg.matrix_norm(torch.ones(3, {device=D}))", "torch.linalg.matrix_norm(torch.ones(3, device=D))")
case("mnorm_3", f"torch.linalg.matrix_norm({X}, 3)", f"torch.linalg.matrix_norm({XP}, 3)")
case("norm_default", f"torch.linalg.norm({X})", f"torch.linalg.norm({XP})")
case("norm_vec1", f"torch.linalg.norm({X}[0], 1)", f"torch.linalg.norm({XP}[0], 1)")
case("norm_mat1", f"torch.linalg.norm({X}, 1)", f"torch.linalg.norm({XP}, 1)")
case("norm_mat_inf", f"torch.linalg.norm({X}, math.huge)", f"torch.linalg.norm({XP}, inf)")
case("norm_fro", f"torch.linalg.norm({X}, 'fro')", f"torch.linalg.norm({XP}, 'fro')")
case("norm_dim", f"torch.linalg.norm({X}, {{dim=1}})", f"torch.linalg.norm({XP}, dim=1)")
case("norm_dims", f"torch.linalg.norm({X}, math.huge, {{0, 1}})", f"torch.linalg.norm({XP}, inf, (0, 1))")
case("norm_3d", "torch.linalg.norm(torch.ones(2, 2, 2, {device=D}), 1)", "torch.linalg.norm(torch.ones(2, 2, 2, device=D), 1)")
case("norm_3d_default", "torch.linalg.norm(torch.ones(2, 2, 2, {device=D}))", "torch.linalg.norm(torch.ones(2, 2, 2, device=D))")
# singular values (gesdd) and the norms built on them; well-separated values, so every LAPACK agrees to print precision
SV = "torch.tensor({{1., -2.}, {3., 4.}}, {device=D})"
SVP = "torch.tensor([[1., -2.], [3., 4.]], device=D)"
SB = "torch.tensor({{{2., 0.5, 1.}, {0., 1., 0.3}}, {{1., 1., 0.}, {0.2, 3., 1.}}}, {dtype=torch.float64, device=D})"
SBP = "torch.tensor([[[2., 0.5, 1.], [0., 1., 0.3]], [[1., 1., 0.], [0.2, 3., 1.]]], dtype=torch.float64, device=D)"
case("svdvals", f"torch.linalg.svdvals({SV})", f"torch.linalg.svdvals({SVP})")
case("svdvals_batch", f"torch.linalg.svdvals({SB})", f"torch.linalg.svdvals({SBP})")
case("svdvals_tall", f"torch.linalg.svdvals({SB}:transpose(1, 2))", f"torch.linalg.svdvals({SBP}.transpose(1, 2))")
case("svdvals_empty", "torch.linalg.svdvals(torch.ones(0, 3, {device=D}))", "torch.linalg.svdvals(torch.ones(0, 3, device=D))")
case("svdvals_1d", "torch.linalg.svdvals(torch.ones(3, {device=D}))", "torch.linalg.svdvals(torch.ones(3, device=D))")
case("svdvals_int", "torch.linalg.svdvals(torch.ones(3, 3, {dtype=torch.int64, device=D}))", "torch.linalg.svdvals(torch.ones(3, 3, dtype=torch.int64, device=D))")
case("svdvals_half", "torch.linalg.svdvals(torch.ones(3, 3, {dtype=torch.float16, device=D}))", "torch.linalg.svdvals(torch.ones(3, 3, dtype=torch.float16, device=D))")
for tag, o, op in (("nuc", "'nuc'", "'nuc'"), ("2", "2", "2"), ("m2", "-2", "-2")):
    case(f"mnorm_{tag}", f"torch.linalg.matrix_norm({SV}, {o})", f"torch.linalg.matrix_norm({SVP}, {op})")
    case(f"mnorm_{tag}_batch", f"torch.linalg.matrix_norm({SB}, {o})", f"torch.linalg.matrix_norm({SBP}, {op})")
    case(f"mnorm_{tag}_dims_keep", f"torch.linalg.matrix_norm({SB}, {o}, {{0, 2}}, true)", f"torch.linalg.matrix_norm({SBP}, {op}, (0, 2), True)")
case("norm_2_matrix", f"torch.linalg.norm({SV}, 2)", f"torch.linalg.norm({SVP}, 2)")
case("norm_nuc", f"torch.linalg.norm({SV}, 'nuc')", f"torch.linalg.norm({SVP}, 'nuc')")
# linspace in the result's float type with fused multiply-adds, as PyTorch's CPU kernel
for tag, args in (("sym7", "-1, 1, 7"), ("mid101", "-5, 5, 101"), ("down17", "2, -3, 17"), ("unit11", "0, 1, 11"), ("third", "0.1, 0.9, 6")):
    case(f"linspace_{tag}", f"torch.linspace({args}, {{device=D}})", f"torch.linspace({args}, device=D)")
    case(f"linspace_{tag}_f64", f"torch.linspace({args}, {{dtype=torch.float64, device=D}})", f"torch.linspace({args}, dtype=torch.float64, device=D)")
# flatten over one dim is the tensor itself (no ViewBackward0), as nn.Flatten on a 2-d batch
case("flatten_noop", "torch.tensor({{0., 1.}, {2., 3.}}, {requires_grad=true, device=D}):flatten(1)", "torch.tensor([[0., 1.], [2., 3.]], requires_grad=True, device=D).flatten(1)")
case("flatten_module_noop", "nn.Flatten()(torch.tensor({{0., 1.}, {2., 3.}}, {requires_grad=true, device=D}))", "torch.nn.Flatten()(torch.tensor([[0., 1.], [2., 3.]], requires_grad=True, device=D))")
case("flatten_some", "torch.ones(2, 1, 2, {requires_grad=true, device=D}):flatten(1)", "torch.ones(2, 1, 2, requires_grad=True, device=D).flatten(1)")
# losses composed in Lua (bindings/lua/16_losses.lua): values, nodes and gradients
LX = "torch.tensor({{0.5, -1., 2.}, {0.1, 0.2, -0.3}}, {requires_grad=true, device=D})"
LXP = "torch.tensor([[0.5, -1., 2.], [0.1, 0.2, -0.3]], requires_grad=True, device=D)"
LY = "torch.tensor({{1., 0., 1.}, {0., 1., 0.}}, {device=D})"
LYP = "torch.tensor([[1., 0., 1.], [0., 1., 0.]], device=D)"
for tag, lua, py in (("bce_logits", f"nn.functional.binary_cross_entropy_with_logits(x, {LY})", f"torch.nn.functional.binary_cross_entropy_with_logits(x, {LYP})"),
                     ("bce_logits_posw_none", f"nn.functional.binary_cross_entropy_with_logits(x, {LY}, {{reduction='none', pos_weight=torch.tensor({{2., 1., 0.5}}, {{device=D}})}})",
                      f"torch.nn.functional.binary_cross_entropy_with_logits(x, {LYP}, reduction='none', pos_weight=torch.tensor([2., 1., 0.5], device=D))"),
                     ("bce", f"nn.functional.binary_cross_entropy(x:sigmoid(), {LY}, {{reduction='sum'}})", f"torch.nn.functional.binary_cross_entropy(x.sigmoid(), {LYP}, reduction='sum')"),
                     ("l1", f"nn.functional.l1_loss(x, {LY})", f"torch.nn.functional.l1_loss(x, {LYP})"),
                     ("smooth_l1", f"nn.functional.smooth_l1_loss(x, {LY}, {{beta=0.5}})", f"torch.nn.functional.smooth_l1_loss(x, {LYP}, beta=0.5)"),
                     ("huber", f"nn.functional.huber_loss(x, {LY}, {{delta=0.5, reduction='sum'}})", f"torch.nn.functional.huber_loss(x, {LYP}, delta=0.5, reduction='sum')"),
                     ("nll", "nn.functional.nll_loss(x:log_softmax(1), torch.tensor({2, 0}, {device=D}))", "torch.nn.functional.nll_loss(x.log_softmax(1), torch.tensor([2, 0], device=D))"),
                     ("nll_weight_ignore", "nn.functional.nll_loss(x:log_softmax(1), torch.tensor({2, -100}, {device=D}), {weight=torch.tensor({1., 2., 3.}, {device=D})})",
                      "torch.nn.functional.nll_loss(x.log_softmax(1), torch.tensor([2, -100], device=D), weight=torch.tensor([1., 2., 3.], device=D))"),
                     ("nll_module", "nn.NLLLoss({reduction='none'})(x:log_softmax(1), torch.tensor({1, 0}, {device=D}))", "torch.nn.NLLLoss(reduction='none')(x.log_softmax(1), torch.tensor([1, 0], device=D))"),
                     ("bce_module", f"nn.BCEWithLogitsLoss()(x, {LY})", f"torch.nn.BCEWithLogitsLoss()(x, {LYP})")):
    case(f"loss_{tag}", f"(function() local x = {LX}; local l = {lua}; l:sum():backward(); return l, x.grad end)()",
         f"(lambda x: (lambda l: (l.sum().backward(), (l, x.grad))[1])({py}))({LXP})")
# cross_entropy over (N, C, d1, ...): a class score per position
CE4 = "torch.arange(24., {device=D}):reshape(2, 3, 2, 2):sin()"
CE4P = "torch.arange(24., device=D).reshape(2, 3, 2, 2).sin()"
T3 = "torch.tensor({{{0, 1}, {2, 0}}, {{1, 1}, {2, -100}}}, {device=D})"
T3P = "torch.tensor([[[0, 1], [2, 0]], [[1, 1], [2, -100]]], device=D)"
for tag, opt, optp in (("mean", "", ""), ("sum", ", {reduction='sum'}", ", reduction='sum'"), ("none", ", {reduction='none'}", ", reduction='none'"),
                       ("weight_smooth", ", {weight=torch.tensor({1., 2., 3.}, {device=D}), label_smoothing=0.1}", ", weight=torch.tensor([1., 2., 3.], device=D), label_smoothing=0.1")):
    case(f"loss_ce_nd_{tag}", f"(function() local x = {CE4}:requires_grad_(); local l = nn.functional.cross_entropy(x, {T3}{opt}); l:sum():backward(); return l, x.grad end)()",
         f"(lambda x: (lambda l: (l.sum().backward(), (l, x.grad))[1])(torch.nn.functional.cross_entropy(x, {T3P}{optp})))({CE4P}.requires_grad_())")
case("loss_ce_3d_none", "nn.functional.cross_entropy(torch.arange(24., {device=D}):reshape(2, 3, 4):cos(), torch.tensor({{0, 1, 2, 0}, {2, 2, 1, 0}}, {device=D}), {reduction='none'})",
     "torch.nn.functional.cross_entropy(torch.arange(24., device=D).reshape(2, 3, 4).cos(), torch.tensor([[0, 1, 2, 0], [2, 2, 1, 0]], device=D), reduction='none')")
case("loss_ce_nd_probs", f"nn.functional.cross_entropy({CE4}, {CE4}:softmax(1))", f"torch.nn.functional.cross_entropy({CE4P}, {CE4P}.softmax(1))")
case("loss_ce_nd_bad_target", f"nn.functional.cross_entropy({CE4}, torch.zeros(2, 2, {{dtype=torch.int64, device=D}}))", f"torch.nn.functional.cross_entropy({CE4P}, torch.zeros(2, 2, dtype=torch.int64, device=D))")
case("loss_ce_3d_bad_target", "nn.functional.cross_entropy(torch.ones(2, 3, 4, {device=D}), torch.zeros(2, 5, {dtype=torch.int64, device=D}))", "torch.nn.functional.cross_entropy(torch.ones(2, 3, 4, device=D), torch.zeros(2, 5, dtype=torch.int64, device=D))")
# integer convolution on the CPU, wrapping as PyTorch's kernel does (Note [Integer convolution])
CX = "torch.arange(50, {device=D}):reshape(1, 2, 5, 5) * 7"
CXP = "torch.arange(50, device=D).reshape(1, 2, 5, 5) * 7"
CW = "torch.arange(36, {device=D}):reshape(2, 2, 3, 3) - 20"
CWP = "torch.arange(36, device=D).reshape(2, 2, 3, 3) - 20"
for dt in ("int64", "uint8", "int16"):
    case(f"conv_int_{dt}", f"nn.functional.conv2d(({CX}):to(torch.{dt}), ({CW}):to(torch.{dt}), torch.tensor({{1, -2}}, {{device=D}}):to(torch.{dt}), 2, 1)",
         f"torch.nn.functional.conv2d(({CXP}).to(torch.{dt}), ({CWP}).to(torch.{dt}), torch.tensor([1, -2], device=D).to(torch.{dt}), 2, 1)")
# nll_loss's target checks, in PyTorch's order (batch size, rank, dtype), and a Byte target
NLX = "torch.arange(12., {device=D}):reshape(4, 3):cos():log_softmax(1)"
NLXP = "torch.arange(12., device=D).reshape(4, 3).cos().log_softmax(1)"
for tag, t, tp in (("rank", "torch.tensor({{0}, {1}, {2}, {0}}, {device=D})", "torch.tensor([[0], [1], [2], [0]], device=D)"),
                   ("batch", "torch.tensor({0, 1}, {device=D})", "torch.tensor([0, 1], device=D)"),
                   ("batch_before_dtype", "torch.tensor({{0., 1., 2., 0.}}, {device=D})", "torch.tensor([[0., 1., 2., 0.]], device=D)"),
                   ("float", "torch.tensor({0., 1., 2., 0.}, {device=D})", "torch.tensor([0., 1., 2., 0.], device=D)"),
                   ("int", "torch.tensor({0, 1, 2, 0}, {dtype=torch.int32, device=D})", "torch.tensor([0, 1, 2, 0], dtype=torch.int32, device=D)"),
                   ("byte", "torch.tensor({0, 1, 2, 0}, {dtype=torch.uint8, device=D})", "torch.tensor([0, 1, 2, 0], dtype=torch.uint8, device=D)")):
    case(f"loss_nll_target_{tag}", f"nn.functional.nll_loss({NLX}, {t})", f"torch.nn.functional.nll_loss({NLXP}, {tp})")
case("loss_bce_range", "nn.functional.binary_cross_entropy(torch.tensor({1.5}, {device=D}), torch.tensor({1.}, {device=D}))", "torch.nn.functional.binary_cross_entropy(torch.tensor([1.5], device=D), torch.tensor([1.], device=D))")
case("loss_size", "nn.functional.binary_cross_entropy_with_logits(torch.ones(2, {device=D}), torch.ones(3, {device=D}))", "torch.nn.functional.binary_cross_entropy_with_logits(torch.ones(2, device=D), torch.ones(3, device=D))")
# the target's dtype and size, as a learner gets them wrong
case("loss_bce_long_target", "nn.functional.binary_cross_entropy(torch.tensor({0.5}, {device=D}), torch.tensor({1}, {device=D}))", "torch.nn.functional.binary_cross_entropy(torch.tensor([0.5], device=D), torch.tensor([1], device=D))")
case("loss_bce_double_target", "nn.functional.binary_cross_entropy(torch.tensor({0.5}, {device=D}), torch.tensor({1.}, {dtype=torch.float64, device=D}))", "torch.nn.functional.binary_cross_entropy(torch.tensor([0.5], device=D), torch.tensor([1.], dtype=torch.float64, device=D))")
case("loss_bce_size", "nn.functional.binary_cross_entropy(torch.full({2, 1}, 0.5, {device=D}), torch.ones(2, {device=D}))", "torch.nn.functional.binary_cross_entropy(torch.full((2, 1), 0.5, device=D), torch.ones(2, device=D))")
case("loss_bce_logits_long_target", "nn.functional.binary_cross_entropy_with_logits(torch.tensor({0.5}, {device=D}), torch.tensor({1}, {device=D}))", "torch.nn.functional.binary_cross_entropy_with_logits(torch.tensor([0.5], device=D), torch.tensor([1], device=D))")
case("loss_bce_logits_bool_target", "nn.functional.binary_cross_entropy_with_logits(torch.tensor({0.5}, {device=D}), torch.tensor({true}, {device=D}))", "torch.nn.functional.binary_cross_entropy_with_logits(torch.tensor([0.5], device=D), torch.tensor([True], device=D))")
case("loss_bce_logits_double_target", "nn.functional.binary_cross_entropy_with_logits(torch.tensor({0.5}, {device=D}), torch.tensor({1.}, {dtype=torch.float64, device=D}))", "torch.nn.functional.binary_cross_entropy_with_logits(torch.tensor([0.5], device=D), torch.tensor([1.], dtype=torch.float64, device=D))")
case("loss_modules_print", "nn.Sequential(nn.BCEWithLogitsLoss(), nn.BCELoss(), nn.L1Loss(), nn.SmoothL1Loss(), nn.HuberLoss(), nn.NLLLoss())",
     "torch.nn.Sequential(torch.nn.BCEWithLogitsLoss(), torch.nn.BCELoss(), torch.nn.L1Loss(), torch.nn.SmoothL1Loss(), torch.nn.HuberLoss(), torch.nn.NLLLoss())")
# broadcasting errors name the last mismatching dim, as PyTorch's infer_size checks from the end
for tag, a, b in (("2x3_3x2", "2, 3", "3, 2"), ("2x3x4_5x4", "2, 3, 4", "5, 4"), ("4x1x3_2x5", "4, 1, 3", "2, 5")):
    case(f"broadcast_err_{tag}", f"torch.ones({a}, {{device=D}}) + torch.ones({b}, {{device=D}})", f"torch.ones({a}, device=D) + torch.ones({b}, device=D)")
# found by the fuzzer: an order past int64's range was converted to int64 for the message
for tag, o in (("3", "3"), ("2_5", "2.5"), ("1e30", "1e30"), ("m1e30", "-1e30"), ("9_3e18", "9.3e18")):
    case(f"mnorm_bad_order_{tag}", f"torch.linalg.matrix_norm(torch.ones(2, 2, {{device=D}}), {o})", f"torch.linalg.matrix_norm(torch.ones(2, 2, device=D), {o})")
case("one_hot", "nn.functional.one_hot(torch.tensor({0, 2, 1}, {device=D}))", "torch.nn.functional.one_hot(torch.tensor([0, 2, 1], device=D))")
case("one_hot_n", "nn.functional.one_hot(torch.tensor({{0, 2}, {1, 1}}, {device=D}), 4)", "torch.nn.functional.one_hot(torch.tensor([[0, 2], [1, 1]], device=D), 4)")
case("one_hot_float", "nn.functional.one_hot(torch.tensor({0., 2.}, {device=D}))", "torch.nn.functional.one_hot(torch.tensor([0., 2.], device=D))")
case("one_hot_big", "nn.functional.one_hot(torch.tensor({0, 5}, {device=D}), 3)", "torch.nn.functional.one_hot(torch.tensor([0, 5], device=D), 3)")
case("one_hot_neg", "nn.functional.one_hot(torch.tensor({-1}, {device=D}))", "torch.nn.functional.one_hot(torch.tensor([-1], device=D))")
case("one_hot_empty", "nn.functional.one_hot(torch.tensor({}, {dtype=torch.int64, device=D}))", "torch.nn.functional.one_hot(torch.tensor([], dtype=torch.int64, device=D))")
case("one_hot_empty_n", "nn.functional.one_hot(torch.tensor({}, {dtype=torch.int64, device=D}), 3)", "torch.nn.functional.one_hot(torch.tensor([], dtype=torch.int64, device=D), 3)")
E1 = "torch.arange(6., {device=D}):reshape(2, 3)"
E1P = "torch.arange(6., device=D).reshape(2, 3)"
E2 = "torch.arange(12., {device=D}):reshape(3, 4)"
E2P = "torch.arange(12., device=D).reshape(3, 4)"
SQ = "torch.arange(9., {device=D}):reshape(3, 3)"
SQP = "torch.arange(9., device=D).reshape(3, 3)"
B1 = "torch.arange(12., {device=D}):reshape(2, 2, 3)"
B1P = "torch.arange(12., device=D).reshape(2, 2, 3)"
B2 = "torch.arange(12., {device=D}):reshape(2, 3, 2)"
B2P = "torch.arange(12., device=D).reshape(2, 3, 2)"
V3 = "torch.tensor({1., 2., 3.}, {device=D})"
V3P = "torch.tensor([1., 2., 3.], device=D)"
for tag, eq, ls, ps in (("mm", "ij,jk->ik", [E1, E2], [E1P, E2P]), ("diag", "ii->i", [SQ], [SQP]), ("transpose", "ij->ji", [E1], [E1P]),
                        ("bmm", "bij,bjk->bik", [B1, B2], [B1P, B2P]), ("sum", "ij->", [E1], [E1P]), ("colsum", "ij->j", [E1], [E1P]),
                        ("trace", "ii", [SQ], [SQP]), ("outer", "i,j->ij", [V3, V3], [V3P, V3P]), ("dot", "i,i->", [V3, V3], [V3P, V3P]),
                        ("hadamard", "ij,ij->ij", [E1, E1], [E1P, E1P]), ("mv", "ij,j->i", [E1, V3], [E1P, V3P]),
                        ("implicit", "ij,jk", [E1, E2], [E1P, E2P]), ("three", "ij,jk,k->i", [E1, E2, "torch.ones(4, {device=D})"], [E1P, E2P, "torch.ones(4, device=D)"]),
                        ("batch_outer", "bi,bj->bij", [E1, E1], [E1P, E1P]), ("rowsum_then", "ij,kj->ik", [E1, E1], [E1P, E1P]),
                        ("spaces", "i j -> j i", [E1], [E1P]), ("bad_size", "ij,jk", [E1, E1], [E1P, E1P]),
                        ("bad_out", "ij->k", [E1], [E1P]), ("bad_ndim", "ijk", [E1], [E1P]), ("few", "ij,jk->ik", [E1], [E1P])):
    case(f"einsum_{tag}", f"torch.einsum('{eq}', {', '.join(ls)})", f"torch.einsum('{eq}', {', '.join(ps)})")
case("einsum_list", f"torch.einsum('ij,jk->ik', {{{E1}, {E2}}})", f"torch.einsum('ij,jk->ik', [{E1P}, {E2P}])")
# "..." (Note [Einsum ellipsis] in tensor/ops/einsum.cpp)
X3 = "torch.arange(24., {device=D}):reshape(2, 3, 4)"
X3P = "torch.arange(24., device=D).reshape(2, 3, 4)"
Y2 = "torch.arange(20., {device=D}):reshape(4, 5)"
Y2P = "torch.arange(20., device=D).reshape(4, 5)"
O31 = "torch.ones(3, 1, {device=D})"
O31P = "torch.ones(3, 1, device=D)"
for tag, eq, ls, ps in (("ell_t", "...ij->...ji", [X3], [X3P]), ("ell_mm", "...ij,jk->...ik", [X3, Y2], [X3P, Y2P]),
                        ("ell_sum", "...ij->ij", [X3], [X3P]), ("ell_implicit", "...ij", [X3], [X3P]),
                        ("ell_front", "i...->...", [X3], [X3P]), ("ell_batch_dot", "b...,b...->b", [X3, X3], [X3P, X3P]),
                        ("ell_bcast", "...,...->...", [O31, "torch.arange(4., {device=D})"], [O31P, "torch.arange(4., device=D)"]),
                        ("ell_diag", "...ii->...i", ["torch.arange(18., {device=D}):reshape(2, 3, 3)"], ["torch.arange(18., device=D).reshape(2, 3, 3)"]),
                        ("ell_all", "ij...->", [X3], [X3P]), ("ell_empty", "i->...", ["torch.ones(2, {device=D})"], ["torch.ones(2, device=D)"]),
                        ("ell_bmm_bcast", "...ij,...jk->...ik", ["torch.ones(2, 1, 3, 4, {device=D})", "torch.ones(5, 4, 2, {device=D})"], ["torch.ones(2, 1, 3, 4, device=D)", "torch.ones(5, 4, 2, device=D)"]),
                        ("ell_two", "....ij", [X3], [X3P]), ("ell_dots", "..i", ["torch.ones(2, {device=D})"], ["torch.ones(2, device=D)"]),
                        ("ell_out_dots", "i->..", ["torch.ones(2, {device=D})"], ["torch.ones(2, device=D)"]),
                        ("ell_many", "ijkl...->", [X3], [X3P]),
                        ("ell_nobcast", "...,...", ["torch.ones(2, {device=D})", "torch.ones(3, {device=D})"], ["torch.ones(2, device=D)", "torch.ones(3, device=D)"])):
    case(f"einsum_{tag}", f"torch.einsum('{eq}', {', '.join(ls)})", f"torch.einsum('{eq}', {', '.join(ps)})")
G3 = "torch.tensor({{1., -5., 2.}, {4., 0., -3.}}, {requires_grad=true, device=D})"
G3P = "torch.tensor([[1., -5., 2.], [4., 0., -3.]], requires_grad=True, device=D)"
for nm, lua, py in (("lse", "torch.logsumexp(x, 1)", "torch.logsumexp(x, 1)"),
                    ("vnorm2", "torch.linalg.vector_norm(x, 2, 1)", "torch.linalg.vector_norm(x, 2, 1)"),
                    ("vnorm1", "torch.linalg.vector_norm(x, 1)", "torch.linalg.vector_norm(x, 1)"),
                    ("vnorm3", "torch.linalg.vector_norm(x, 3, 0)", "torch.linalg.vector_norm(x, 3, 0)"),
                    ("vnorminf", "torch.linalg.vector_norm(x, math.huge, 1)", "torch.linalg.vector_norm(x, inf, 1)"),
                    ("mnorm1", "torch.linalg.matrix_norm(x, 1)", "torch.linalg.matrix_norm(x, 1)"),
                    ("norm", "torch.linalg.norm(x)", "torch.linalg.norm(x)"),
                    ("einsum_mm", "torch.einsum('ij,kj->ik', x, x)", "torch.einsum('ij,kj->ik', x, x)"),
                    ("einsum_t", "torch.einsum('ij->ji', x)", "torch.einsum('ij->ji', x)"),
                    ("einsum_ell", "torch.einsum('...j,kj->...k', x, x)", "torch.einsum('...j,kj->...k', x, x)"),
                    ("einsum_diag", "torch.einsum('ii->i', x[':, :2'])", "torch.einsum('ii->i', x[:, :2])"),
                    ("einsum_outer", "torch.einsum('i,j->ij', x[0], x[1])", "torch.einsum('i,j->ij', x[0], x[1])"),
                    ("einsum_sum", "torch.einsum('ij->j', x)", "torch.einsum('ij->j', x)")):
    case(f"grad_{nm}", f"(function() local x = {G3}; local v = {lua}; (v * torch.arange(1., v:numel() + 1, {{device=D}}):reshape(v.shape)):sum():backward(); return v, x.grad end)()",
         f"(lambda x: (lambda v: ((v * torch.arange(1., v.numel() + 1, device=D).reshape(v.shape)).sum().backward(), (v, x.grad))[1])({py}))({G3P})")

# ---- group 3: clamp with tensor bounds (clamp.Tensor) and ties of maximum/minimum ----
CX = "torch.tensor({0., 0.5, 1.}, {requires_grad=true, device=D})"
CXP = "torch.tensor([0., 0.5, 1.], requires_grad=True, device=D)"
CB = "torch.tensor({0., 0., 0.}, {requires_grad=true, device=D})"
CBP = "torch.tensor([0., 0., 0.], requires_grad=True, device=D)"
CT = "torch.tensor({1., 1., 1.}, {requires_grad=true, device=D})"
CTP = "torch.tensor([1., 1., 1.], requires_grad=True, device=D)"
case("clamp_t_grad", f"(function() local x, lo, hi = {CX}, {CB}, {CT}; local y = torch.clamp(x, lo, hi); y:sum():backward(); return y, x.grad, lo.grad, hi.grad end)()",
     f"(lambda x, lo, hi: (lambda y: (y.sum().backward(), (y, x.grad, lo.grad, hi.grad))[1])(torch.clamp(x, lo, hi)))({CXP}, {CBP}, {CTP})")
case("clamp_t_mixed", "torch.tensor({1., 2., 5.}, {device=D}):clamp(torch.tensor(2., {device=D}), 3)", "torch.tensor([1., 2., 5.], device=D).clamp(torch.tensor(2., device=D), 3)")
case("clamp_t_min_kw", "torch.tensor({1., 5., 9.}, {device=D}):clamp({min=torch.tensor({2., 2., 2.}, {device=D})})", "torch.tensor([1., 5., 9.], device=D).clamp(min=torch.tensor([2., 2., 2.], device=D))")
case("clamp_t_int", "torch.tensor({1, 5, 9}, {device=D}):clamp(torch.tensor({2, 2, 2}, {device=D}), torch.tensor({8, 8, 8}, {device=D}))", "torch.tensor([1, 5, 9], device=D).clamp(torch.tensor([2, 2, 2], device=D), torch.tensor([8, 8, 8], device=D))")
case("clamp_t_promote", "torch.tensor({1, 5, 9}, {device=D}):clamp(torch.tensor({2.5, 2., 2.}, {device=D}))", "torch.tensor([1, 5, 9], device=D).clamp(torch.tensor([2.5, 2., 2.], device=D))")
case("clamp_t_broadcast", "torch.tensor({1., 5.}, {device=D}):clamp(torch.tensor({{2.}, {6.}}, {device=D}))", "torch.tensor([1., 5.], device=D).clamp(torch.tensor([[2.], [6.]], device=D))")
case("clamp_t_inplace", "(function() local x = torch.tensor({1., 5., 9.}, {device=D}); x:clamp_(torch.tensor({2., 2., 2.}, {device=D}), torch.tensor({8., 8., 8.}, {device=D})); return x end)()",
     "(lambda x: (x.clamp_(torch.tensor([2., 2., 2.], device=D), torch.tensor([8., 8., 8.], device=D)), x)[1])(torch.tensor([1., 5., 9.], device=D))")
case("clamp_t_inplace_shape", "torch.tensor({1., 5.}, {device=D}):clamp_(torch.tensor({{2.}, {6.}}, {device=D}))", "torch.tensor([1., 5.], device=D).clamp_(torch.tensor([[2.], [6.]], device=D))")
case("clip_t", "torch.clip(torch.tensor({1., 5., 9.}, {device=D}), torch.tensor({2., 2., 2.}, {device=D}))", "torch.clip(torch.tensor([1., 5., 9.], device=D), torch.tensor([2., 2., 2.], device=D))")
MA = "torch.tensor({1., 2., 3.}, {requires_grad=true, device=D})"
MAP = "torch.tensor([1., 2., 3.], requires_grad=True, device=D)"
MB = "torch.tensor({2., 2., 2.}, {requires_grad=true, device=D})"
MBP = "torch.tensor([2., 2., 2.], requires_grad=True, device=D)"
for nm in ("maximum", "minimum"):
    case(f"grad_{nm}_ties", f"(function() local a, b = {MA}, {MB}; torch.{nm}(a, b):sum():backward(); return a.grad, b.grad end)()",
         f"(lambda a, b: (torch.{nm}(a, b).sum().backward(), (a.grad, b.grad))[1])({MAP}, {MBP})")

# ---- group 4: addcmul, addcdiv, lerp, add/sub with alpha: PyTorch's rounding ----
# (Note [Ternary ops], Note [Add with alpha]); tolist() shows every bit.
def t3(dt=""):
    """Three 13-element tensors with values that round differently fused and not."""
    lua_dt, py_dt = (f", dtype=torch.{dt}", f", dtype=torch.{dt}") if dt else ("", "")
    lua = [f"torch.arange(1., 14., {{device=D{lua_dt}}}):mul(0.37)", f"torch.arange(13., {{device=D{lua_dt}}}):div(7)",
           f"torch.arange(13., {{device=D{lua_dt}}}):sub(6):mul(0.11)"]
    py = [f"torch.arange(1., 14., device=D{py_dt}).mul(0.37)", f"torch.arange(13., device=D{py_dt}).div(7)",
          f"torch.arange(13., device=D{py_dt}).sub(6).mul(0.11)"]
    return lua, py
for dt in ("", "float16", "bfloat16", "float64"):
    (la, lb, lc), (pa, pb, pc) = t3(dt)
    tag = dt or "float32"
    case(f"addcmul_{tag}", f"torch.addcmul({la}, {lb}, {lc}, {{value=0.3}}):tolist()", f"torch.addcmul({pa}, {pb}, {pc}, value=0.3).tolist()")
    case(f"addcdiv_{tag}", f"{la}:addcdiv({lb}, {lc}:add(0.05), {{value=-0.7}}):tolist()", f"{pa}.addcdiv({pb}, {pc}.add(0.05), value=-0.7).tolist()")
    case(f"lerp_small_{tag}", f"torch.lerp({la}, {lb}, 0.3):tolist()", f"torch.lerp({pa}, {pb}, 0.3).tolist()")
    case(f"lerp_large_{tag}", f"{la}:lerp({lb}, 0.7):tolist()", f"{pa}.lerp({pb}, 0.7).tolist()")
    case(f"lerp_tensor_{tag}", f"torch.lerp({la}, {lb}, torch.linspace(-1, 2, 13, {{device=D{', dtype=torch.' + dt if dt else ''}}})):tolist()",
         f"torch.lerp({pa}, {pb}, torch.linspace(-1, 2, 13, device=D{', dtype=torch.' + dt if dt else ''})).tolist()")
    # 64 elements: PyTorch's CPU rounds a bfloat16 tail shorter than a vector
    # (its scalar loop) otherwise than the vector body, which gpulab follows.
    l64, p64 = (x.replace("14.", "65.").replace("(13.", "(64.") for x in (la, pa))
    m64, q64 = (x.replace("(13.", "(64.") for x in (lc, pc))
    case(f"add_alpha_{tag}", f"torch.add({l64}, {m64}, {{alpha=0.37}}):tolist()", f"torch.add({p64}, {q64}, alpha=0.37).tolist()")
    case(f"sub_alpha_{tag}", f"{l64}:sub({m64}, {{alpha=1.9}}):tolist()", f"{p64}.sub({q64}, alpha=1.9).tolist()")
    case(f"add_scalar_alpha_{tag}", f"{la}:add(0.1, {{alpha=0.3}}):tolist()", f"{pa}.add(0.1, alpha=0.3).tolist()")
(la, lb, lc), (pa, pb, pc) = t3()
case("add_alpha_inplace", f"(function() local a = {la}; a:add_({lb}, {{alpha=-0.01}}); return a:tolist() end)()",
     f"(lambda a: (a.add_({pb}, alpha=-0.01), a.tolist())[1])({pa})")
case("addcmul_inplace", f"(function() local a = {la}; a:addcmul_({lb}, {lc}, {{value=0.001}}); return a:tolist() end)()",
     f"(lambda a: (a.addcmul_({pb}, {pc}, value=0.001), a.tolist())[1])({pa})")
case("addcdiv_inplace", f"(function() local a = {la}; a:addcdiv_({lb}, {lc}:add(0.05)); return a:tolist() end)()",
     f"(lambda a: (a.addcdiv_({pb}, {pc}.add(0.05)), a.tolist())[1])({pa})")
case("lerp_inplace", f"(function() local a = {la}; a:lerp_({lb}, 0.1); return a:tolist() end)()",
     f"(lambda a: (a.lerp_({pb}, 0.1), a.tolist())[1])({pa})")
case("addcmul_int", "torch.addcmul(torch.tensor({1, 2, 3}, {device=D}), torch.tensor({1, 2, 3}, {device=D}), torch.tensor({4, 5, 6}, {device=D}), {value=2})",
     "torch.addcmul(torch.tensor([1, 2, 3], device=D), torch.tensor([1, 2, 3], device=D), torch.tensor([4, 5, 6], device=D), value=2)")
case("addcmul_promote", "torch.addcmul(torch.tensor({1, 2, 3}, {device=D}), torch.tensor({0.5, 2., 3.}, {device=D}), torch.tensor({4, 5, 6}, {device=D}))",
     "torch.addcmul(torch.tensor([1, 2, 3], device=D), torch.tensor([0.5, 2., 3.], device=D), torch.tensor([4, 5, 6], device=D))")
case("addcmul_broadcast", "torch.addcmul(torch.ones(2, 1, {device=D}), torch.tensor({1., 2., 3.}, {device=D}), torch.tensor({{2.}, {3.}}, {device=D}))",
     "torch.addcmul(torch.ones(2, 1, device=D), torch.tensor([1., 2., 3.], device=D), torch.tensor([[2.], [3.]], device=D))")
case("addcmul_bool", "torch.addcmul(torch.tensor({true}, {device=D}), torch.tensor({true}, {device=D}), torch.tensor({true}, {device=D}))",
     "torch.addcmul(torch.tensor([True], device=D), torch.tensor([True], device=D), torch.tensor([True], device=D))")
case("addcdiv_int", "torch.addcdiv(torch.tensor({1., 2.}, {device=D}), torch.tensor({1, 2}, {device=D}), torch.tensor({3, 4}, {device=D}))",
     "torch.addcdiv(torch.tensor([1., 2.], device=D), torch.tensor([1, 2], device=D), torch.tensor([3, 4], device=D))")
case("addcdiv_mixed", "torch.addcdiv(torch.tensor({1, 2}, {device=D}), torch.tensor({1., 2.}, {device=D}), torch.tensor({3, 4}, {device=D}))",
     "torch.addcdiv(torch.tensor([1, 2], device=D), torch.tensor([1., 2.], device=D), torch.tensor([3, 4], device=D))")
case("lerp_end_dtype", "torch.lerp(torch.ones(2, {device=D}), torch.ones(2, {device=D, dtype=torch.float64}), 0.5)",
     "torch.lerp(torch.ones(2, device=D), torch.ones(2, device=D, dtype=torch.float64), 0.5)")
case("lerp_weight_dtype", "torch.lerp(torch.ones(2, {device=D}), torch.ones(2, {device=D}), torch.ones(2, {device=D, dtype=torch.float64}))",
     "torch.lerp(torch.ones(2, device=D), torch.ones(2, device=D), torch.ones(2, device=D, dtype=torch.float64))")
case("lerp_inplace_shape", "torch.ones(2, {device=D}):lerp_(torch.ones(3, 2, {device=D}), 0.5)", "torch.ones(2, device=D).lerp_(torch.ones(3, 2, device=D), 0.5)")
case("addcmul_inplace_shape", "torch.ones(2, {device=D}):addcmul_(torch.ones(3, 2, {device=D}), torch.ones(2, {device=D}))",
     "torch.ones(2, device=D).addcmul_(torch.ones(3, 2, device=D), torch.ones(2, device=D))")
GA = "torch.tensor({1., -2., 3.}, {requires_grad=true, device=D})"
GAP = "torch.tensor([1., -2., 3.], requires_grad=True, device=D)"
GB = "torch.tensor({0.5, 4., -1.}, {requires_grad=true, device=D})"
GBP = "torch.tensor([0.5, 4., -1.], requires_grad=True, device=D)"
GC = "torch.tensor({2., 0.25, 3.}, {requires_grad=true, device=D})"
GCP = "torch.tensor([2., 0.25, 3.], requires_grad=True, device=D)"
for nm, lua, py in [("addcmul", "torch.addcmul(a, b, c, {value=0.5})", "torch.addcmul(a, b, c, value=0.5)"),
                    ("addcdiv", "torch.addcdiv(a, b, c, {value=0.5})", "torch.addcdiv(a, b, c, value=0.5)"),
                    ("lerp_tensor", "torch.lerp(a, b, c)", "torch.lerp(a, b, c)"),
                    ("lerp_scalar", "torch.lerp(a, b, 0.25)", "torch.lerp(a, b, 0.25)"),
                    ("add_alpha", "torch.add(a, b, {alpha=3})", "torch.add(a, b, alpha=3)"),
                    ("sub_alpha", "torch.sub(a, c, {alpha=2})", "torch.sub(a, c, alpha=2)")]:
    case(f"grad_{nm}", f"(function() local a, b, c = {GA}, {GB}, {GC}; local y = {lua}; (y * torch.tensor({{1., 2., 3.}}, {{device=D}})):sum():backward(); return y, a.grad, b.grad, c.grad end)()",
         f"(lambda a, b, c: (lambda y: ((y * torch.tensor([1., 2., 3.], device=D)).sum().backward(), (y, a.grad, b.grad, c.grad))[1])({py}))({GAP}, {GBP}, {GCP})")

# Python's 2 / x is x.reciprocal() * 2: its values and its graph.
case("rdiv_values", "(0.37 / torch.arange(1., 14., {device=D})):tolist()", "(0.37 / torch.arange(1., 14., device=D)).tolist()")
case("rdiv_int", "2 / torch.tensor({1, 2, 4}, {device=D})", "2 / torch.tensor([1, 2, 4], device=D)")
case("rdiv_grad", f"(function() local a = {GA}; local y = 3 / a; y:sum():backward(); return y, a.grad end)()",
     f"(lambda a: (lambda y: (y.sum().backward(), (y, a.grad))[1])(3 / a))({GAP})")

# -0.0: neg of +0 is -0, abs of -0 is +0
case("neg_zero", "-torch.zeros(2, {device=D})", "-torch.zeros(2, device=D)")
case("neg_method_zero", "torch.zeros(2, {dtype=torch.float64, device=D}):neg()", "torch.zeros(2, dtype=torch.float64, device=D).neg()")
case("abs_neg_zero", "torch.tensor({-0.0, -1.5}, {device=D}):abs()", "torch.tensor([-0.0, -1.5], device=D).abs()")
# matmul folds a batch times a matrix into mm (PyTorch's should_fold), else broadcasts into bmm
case("matmul_fold_mm_shape", "torch.matmul(torch.ones(2, 1, 28, 28, {device=D}), torch.ones(784, 10, {device=D}))",
     "torch.matmul(torch.ones(2, 1, 28, 28, device=D), torch.ones(784, 10, device=D))")
case("matmul_fold_mv_shape", "torch.matmul(torch.ones(2, 4, 5, {device=D}), torch.ones(4, {device=D}))",
     "torch.matmul(torch.ones(2, 4, 5, device=D), torch.ones(4, device=D))")
case("matmul_bmm_shape", "torch.matmul(torch.ones(2, 3, 4, {device=D}), torch.ones(2, 5, 6, {device=D}))",
     "torch.matmul(torch.ones(2, 3, 4, device=D), torch.ones(2, 5, 6, device=D))")
case("matmul_bmm_broadcast_shape", "torch.matmul(torch.ones(4, 2, 3, {device=D}), torch.ones(4, 4, 2, {device=D}))",
     "torch.matmul(torch.ones(4, 2, 3, device=D), torch.ones(4, 4, 2, device=D))")
case("matmul_vec_batch_shape", "torch.matmul(torch.ones(3, {device=D}), torch.ones(2, 4, 5, {device=D}))",
     "torch.matmul(torch.ones(3, device=D), torch.ones(2, 4, 5, device=D))")
case("matmul_fold_values", "torch.matmul(torch.arange(24., {device=D}):reshape(2, 3, 4), torch.arange(8., {device=D}):reshape(4, 2))",
     "torch.matmul(torch.arange(24., device=D).reshape(2, 3, 4), torch.arange(8., device=D).reshape(4, 2))")
case("matmul_fold_grad", "(function() local w = torch.ones(4, 2, {device=D, requires_grad=true}); local y = torch.matmul(torch.arange(24., {device=D}):reshape(2, 3, 4), w); y:sum():backward(); return y.grad_fn:name(), w.grad end)()",
     "(lambda w: (lambda y: (y.sum().backward(), y.grad_fn.name(), w.grad)[1:])(torch.matmul(torch.arange(24., device=D).reshape(2, 3, 4), w)))(torch.ones(4, 2, device=D, requires_grad=True))")
case("matmul_vec_fold_values", "torch.matmul(torch.arange(3., {device=D}), torch.arange(24., {device=D}):reshape(2, 3, 4))",
     "torch.matmul(torch.arange(3., device=D), torch.arange(24., device=D).reshape(2, 3, 4))")


def run_py(code):
    return repr_of(code, {"torch": torch, "nan": nan, "inf": inf, "D": "cpu"})


def main():
    write_expected("gen_b2_ops.py", "b2_ops_expected.lua", CASES, run_py)


if __name__ == "__main__":
    main()
