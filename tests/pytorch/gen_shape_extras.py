#!/usr/bin/env python3
# Needs PyTorch (CPU is enough) and IPython. Writes
# tests/lua/shape_extras_expected.lua: for each case, the gpulab (Lua) code and
# what PyTorch prints for the same code (its repr, or "Kind: message" for an
# error), for flip, roll, tile, unfold, F.pad's reflect / replicate / circular
# modes and embedding. tests/lua/test_shape_extras.lua runs each case on the
# CPU and on a virtual CUDA device and compares the echo.
#   python3 tests/pytorch/gen_shape_extras.py
import torch
import torch.nn as nn
import torch.nn.functional as F
from expected_cases import repr_of, write_expected

# (name, Lua code with D for the device string, Python code with D likewise)
CASES = []


def case(name, lua, py=None):
    CASES.append((name, lua, py if py is not None else lua))


def lua_fn(body):
    """A Lua expression running `body` (statements ending in a return)."""
    return f"(function() {body} end)()"


def both(name, lua_tail, py_tail, lua_x=None, py_x=None):
    """A case on X (a 2x3 float tensor) unless another input is given."""
    case(name, (lua_x or X) + lua_tail, (py_x or XP) + py_tail)


X = "torch.arange(6., {device=D}):reshape(2, 3)"
XP = "torch.arange(6., device=D).reshape(2, 3)"
XG = f"{X}:requires_grad_()"
XGP = f"{XP}.requires_grad_()"
W = "torch.tensor({{1., -2., 3.}, {0.5, 4., -1.}}, {device=D})"
WP = "torch.tensor([[1., -2., 3.], [0.5, 4., -1.]], device=D)"


def grads(name, lua_op, py_op, lua_x=XG, py_x=XGP, lua_w=W, py_w=WP):
    """y = op(x), (y * w):sum():backward(): y and x.grad; then the second order of
    (op(x) ^ 3 * w):sum() (the first-order gradient detached: PyTorch names its
    node by the derivative's own op)."""
    case(f"{name}_grad", lua_fn(f"local x = {lua_x}; local y = {lua_op.format('x')}; (y * {lua_w}):sum():backward(); return y, x.grad"),
         f"(lambda x: (lambda y: ((y * {py_w}).sum().backward(), (y, x.grad))[1])({py_op.format('x')}))({py_x})")
    case(f"{name}_second_order",
         lua_fn(f"local x = {lua_x}; local g = torch.autograd.grad(({lua_op.format('x')} ^ 3 * {lua_w}):sum(), x, {{create_graph=true}})[1]; "
                "return g:detach(), torch.autograd.grad(g:sum(), x)[1]"),
         f"(lambda x: (lambda g: (g.detach(), torch.autograd.grad(g.sum(), x)[0]))"
         f"(torch.autograd.grad(({py_op.format('x')} ** 3 * {py_w}).sum(), x, create_graph=True)[0]))({py_x})")


# ---- flip, fliplr, flipud ----
both("flip_method", ":flip(0)", ".flip(0)")
both("flip_varargs", ":flip(0, 1)", ".flip(0, 1)")
both("flip_table", ":flip({0, 1})", ".flip((0, 1))")
both("flip_neg", ":flip(-1)", ".flip(-1)")
case("flip_function", f"torch.flip({X}, {{0, 1}})", f"torch.flip({XP}, (0, 1))")
case("flip_function_empty", f"torch.flip({X}, {{}})", f"torch.flip({XP}, ())")
case("flip_function_int", f"torch.flip({X}, 0)", f"torch.flip({XP}, 0)")
case("flip_function_missing", f"torch.flip({X})", f"torch.flip({XP})")
both("flip_missing", ":flip()", ".flip()")
both("flip_dup", ":flip(0, -2)", ".flip(0, -2)")
both("flip_out_of_range", ":flip(2)", ".flip(2)")
case("flip_0d", "torch.tensor(3., {device=D}):flip(0)", "torch.tensor(3., device=D).flip(0)")
case("flip_0d_range", "torch.tensor(3., {device=D}):flip(1)", "torch.tensor(3., device=D).flip(1)")
case("flip_3d", "torch.arange(24, {device=D}):reshape(2, 3, 4):flip(0, 2)",
     "torch.arange(24, device=D).reshape(2, 3, 4).flip(0, 2)")
case("flip_bool", "torch.tensor({true, false, false}, {device=D}):flip(0)",
     "torch.tensor([True, False, False], device=D).flip(0)")
both("flip_transposed", ":t():flip(0)", ".t().flip(0)")
case("flip_empty", "torch.zeros(0, 3, {device=D}):flip(0)", "torch.zeros(0, 3, device=D).flip(0)")
both("fliplr", ":fliplr()", ".fliplr()")
both("flipud", ":flipud()", ".flipud()")
case("fliplr_function", f"torch.fliplr({X})", f"torch.fliplr({XP})")
case("flipud_function", f"torch.flipud({X})", f"torch.flipud({XP})")
case("fliplr_1d", "torch.fliplr(torch.ones(3, {device=D}))", "torch.fliplr(torch.ones(3, device=D))")
case("flipud_0d", "torch.flipud(torch.tensor(1., {device=D}))", "torch.flipud(torch.tensor(1., device=D))")
case("flip_grad_fn", f"{XG}:flip(0)", f"{XGP}.flip(0)")
case("fliplr_grad_fn", f"{XG}:fliplr()", f"{XGP}.fliplr()")
grads("flip", "{}:flip(0, 1)", "{}.flip(0, 1)")

# ---- roll ----
case("roll_flat", f"torch.roll({X}, 1)", f"torch.roll({XP}, 1)")
case("roll_dim", f"torch.roll({X}, 1, 0)", f"torch.roll({XP}, 1, 0)")
case("roll_multi", f"torch.roll({X}, {{1, -1}}, {{0, 1}})", f"torch.roll({XP}, (1, -1), (0, 1))")
both("roll_neg", ":roll(-1, 1)", ".roll(-1, 1)")
both("roll_big", ":roll(7, 1)", ".roll(7, 1)")
both("roll_big_neg", ":roll(-8)", ".roll(-8)")
both("roll_kw", ":roll(1, {dims=0})", ".roll(1, dims=0)")
both("roll_kw_both", ":roll({shifts=1, dims=-1})", ".roll(shifts=1, dims=-1)")
case("roll_align", f"torch.roll({X}, {{1, 2}})", f"torch.roll({XP}, (1, 2))")
case("roll_align_dims", f"torch.roll({X}, {{1}}, {{0, 1}})", f"torch.roll({XP}, (1,), (0, 1))")
case("roll_align_int", f"torch.roll({X}, 1, {{0, 1}})", f"torch.roll({XP}, 1, (0, 1))")
both("roll_missing", ":roll()", ".roll()")
case("roll_function_missing", f"torch.roll({X})", f"torch.roll({XP})")
both("roll_empty_shifts", ":roll({}, {})", ".roll((), ())")
both("roll_out_of_range", ":roll(1, 2)", ".roll(1, 2)")
both("roll_too_many", ":roll(0, 0, 1)", ".roll(0, 0, 1)")
case("roll_0d", "torch.roll(torch.tensor(3., {device=D}), 1)", "torch.roll(torch.tensor(3., device=D), 1)")
case("roll_0d_dim", "torch.roll(torch.tensor(3., {device=D}), 1, 0)", "torch.roll(torch.tensor(3., device=D), 1, 0)")
case("roll_empty", "torch.roll(torch.zeros(0, 2, {device=D}), 1, 0)", "torch.roll(torch.zeros(0, 2, device=D), 1, 0)")
case("roll_int", "torch.arange(5, {device=D}):roll(2)", "torch.arange(5, device=D).roll(2)")
case("roll_grad_fn", f"{XG}:roll(1)", f"{XGP}.roll(1)")
case("roll_grad_fn_dims", f"{XG}:roll({{1, 1}}, {{0, 1}})", f"{XGP}.roll((1, 1), (0, 1))")
grads("roll", "{}:roll({{1, -1}}, {{0, 1}})", "{}.roll((1, -1), (0, 1))")
grads("roll_flat", "{}:roll(2)", "{}.roll(2)")

# ---- tile ----
case("tile_function", f"torch.tile({X}, {{2}})", f"torch.tile({XP}, (2,))")
both("tile_longer", ":tile(2, 1, 1)", ".tile(2, 1, 1)")
both("tile_int", ":tile(2)", ".tile(2)")
both("tile_table", ":tile({2, 2})", ".tile((2, 2))")
both("tile_missing", ":tile()", ".tile()")
both("tile_empty", ":tile({})", ".tile(())")
both("tile_negative", ":tile(-1)", ".tile(-1)")
both("tile_negatives", ":tile(-2, -1)", ".tile(-2, -1)")
both("tile_zero", ":tile(0)", ".tile(0)")
case("tile_0d", "torch.tile(torch.tensor(3., {device=D}), {2})", "torch.tile(torch.tensor(3., device=D), (2,))")
case("tile_function_int", f"torch.tile({X}, 2)", f"torch.tile({XP}, 2)")
case("tile_empty_negative", "torch.zeros(0, 3, {device=D}):tile(-1, 1)", "torch.zeros(0, 3, device=D).tile(-1, 1)")
case("repeat_negative", lua_fn(f"local x = {X}; return x['repeat'](x, 1, -1)"), f"{XP}.repeat(1, -1)")
case("tile_grad_fn", f"{XG}:tile(2)", f"{XGP}.tile(2)")
grads("tile", "{}:tile(1, 2)", "{}.tile(1, 2)", lua_w="torch.arange(12., {device=D}):reshape(2, 6)",
      py_w="torch.arange(12., device=D).reshape(2, 6)")

# ---- unfold ----
for nm, args in (("windows", "1, 2, 1"), ("dim0", "0, 2, 1"), ("step", "1, 2, 2"), ("too_big", "1, 4, 1"),
                 ("size0", "1, 0, 1"), ("step0", "1, 2, 0"), ("size_neg", "1, -1, 1"), ("step_neg", "1, 2, -1"),
                 ("dim_range", "2, 1, 1"), ("neg_dim", "-1, 3, 5"), ("whole", "1, 3, 1")):
    both(f"unfold_{nm}", f":unfold({args})", f".unfold({args})")
case("unfold_0d", "torch.tensor(3., {device=D}):unfold(0, 1, 1)", "torch.tensor(3., device=D).unfold(0, 1, 1)")
case("unfold_0d_big", "torch.tensor(3., {device=D}):unfold(0, 2, 1)", "torch.tensor(3., device=D).unfold(0, 2, 1)")
case("unfold_0d_range", "torch.tensor(3., {device=D}):unfold(1, 1, 1)", "torch.tensor(3., device=D).unfold(1, 1, 1)")
case("unfold_empty", "torch.zeros(0, {device=D}):unfold(0, 0, 1)", "torch.zeros(0, device=D).unfold(0, 0, 1)")
both("unfold_missing", ":unfold(1, 2)", ".unfold(1, 2)")
both("unfold_contiguous", ":unfold(1, 2, 1):is_contiguous()", ".unfold(1, 2, 1).is_contiguous()")
case("unfold_1d", "torch.arange(7, {device=D}):unfold(0, 3, 2)", "torch.arange(7, device=D).unfold(0, 3, 2)")
case("unfold_view", lua_fn("local x = torch.zeros(4, {device=D}); local u = x:unfold(0, 2, 1); x[1] = 5; return u"),
     "(lambda x: (lambda u: (x.__setitem__(1, 5), u)[1])(x.unfold(0, 2, 1)))(torch.zeros(4, device=D))")
case("unfold_grad_fn", f"{XG}:unfold(1, 2, 1)", f"{XGP}.unfold(1, 2, 1)")
U3 = "torch.tensor({{{1., 2.}, {-1., 0.5}}, {{3., 1.}, {2., -2.}}}, {device=D})"
U3P = "torch.tensor([[[1., 2.], [-1., 0.5]], [[3., 1.], [2., -2.]]], device=D)"
grads("unfold_overlap", "{}:unfold(1, 2, 1)", "{}.unfold(1, 2, 1)", lua_w=U3, py_w=U3P)
grads("unfold_gaps", "{}:unfold(0, 2, 3)", "{}.unfold(0, 2, 3)", lua_x="torch.arange(7., {device=D}):requires_grad_()",
      py_x="torch.arange(7., device=D).requires_grad_()", lua_w="torch.tensor({{1., 2.}, {3., 4.}}, {device=D})",
      py_w="torch.tensor([[1., 2.], [3., 4.]], device=D)")
grads("unfold_dim0", "{}:unfold(0, 1, 1)", "{}.unfold(0, 1, 1)",
      lua_w="torch.tensor({{{1.}, {2.}, {3.}}, {{4.}, {5.}, {6.}}}, {device=D})",
      py_w="torch.tensor([[[1.], [2.], [3.]], [[4.], [5.], [6.]]], device=D)")

# ---- F.pad: reflect, replicate, circular ----
P3 = "torch.arange(6., {device=D}):reshape(1, 2, 3)"
P3P = "torch.arange(6., device=D).reshape(1, 2, 3)"


def pad(name, x, xp, p, mode, extra="", extra_py=""):
    case(f"pad_{mode}_{name}", f"nn.functional.pad({x}, {{{p}}}, {{mode='{mode}'{extra}}})",
         f"F.pad({xp}, ({p}{',' if p and ',' not in p else ''}), mode='{mode}'{extra_py})")


for mode in ("reflect", "replicate", "circular"):
    pad("both", P3, P3P, "2, 2", mode)
    pad("left3", P3, P3P, "3, 0", mode)
    pad("crop", P3, P3P, "-1, 1", mode)
    pad("crop_right", P3, P3P, "1, -1", mode)
    pad("crop_all", P3, P3P, "-2, -2", mode)
    pad("left4", P3, P3P, "4, 0", mode)
    pad("odd", P3, P3P, "1", mode)
    pad("size6_3d", P3, P3P, "1, 1, 1, 1, 1, 1", mode)
    pad("size8_3d", P3, P3P, "1, 1, 1, 1, 1, 1, 1, 1", mode)
    pad("1d_input", "torch.ones(3, {device=D})", "torch.ones(3, device=D)", "1, 1", mode)
    pad("0d_input", "torch.tensor(1., {device=D})", "torch.tensor(1., device=D)", "1, 1", mode)
    pad("no_pads", P3, P3P, "", mode)
    pad("empty_channel", "torch.ones(1, 0, 3, {device=D})", "torch.ones(1, 0, 3, device=D)", "1, 1", mode)
    pad("empty_batch", "torch.ones(0, 2, 3, {device=D})", "torch.ones(0, 2, 3, device=D)", "1, 1", mode)
    pad("empty_width", "torch.ones(1, 2, 0, {device=D})", "torch.ones(1, 2, 0, device=D)", "1, 1", mode)
    pad("empty_unbatched", "torch.ones(0, 3, {device=D})", "torch.ones(0, 3, device=D)", "1, 1", mode)
    pad("value", P3, P3P, "1, 1", mode, ", value=3", ", value=3")
    pad("value0", P3, P3P, "1, 1", mode, ", value=0", ", value=0")
    pad("int", "torch.arange(6, {device=D}):reshape(1, 2, 3)", "torch.arange(6, device=D).reshape(1, 2, 3)", "1, 1", mode)
    pad("zeros", P3, P3P, "0, 0", mode)
    pad("2d_on_3d", P3, P3P, "1, 1, 1, 0", mode)
    pad("2d", "torch.arange(6., {device=D}):reshape(1, 1, 2, 3)", "torch.arange(6., device=D).reshape(1, 1, 2, 3)",
        "1, 1, 1, 2", mode)
    pad("2d_top", "torch.arange(6., {device=D}):reshape(1, 1, 2, 3)", "torch.arange(6., device=D).reshape(1, 1, 2, 3)",
        "1, 1, 2, 1", mode)
    pad("4_on_2d", "torch.ones(2, 3, {device=D})", "torch.ones(2, 3, device=D)", "1, 1, 1, 1", mode)
    pad("2_on_4d", "torch.ones(1, 1, 2, 3, {device=D})", "torch.ones(1, 1, 2, 3, device=D)", "1, 1", mode)
    pad("3d_on_4d", "torch.arange(8., {device=D}):reshape(1, 2, 2, 2)", "torch.arange(8., device=D).reshape(1, 2, 2, 2)",
        "1, 1, 1, 1, 1, 1", mode)
    pad("3d_thin", "torch.ones(1, 1, 1, 2, 2, {device=D})", "torch.ones(1, 1, 1, 2, 2, device=D)", "1, 1, 1, 1, 1, 1", mode)
    pad("3d_flat", "torch.ones(1, 1, 1, 2, 2, {device=D})", "torch.ones(1, 1, 1, 2, 2, device=D)", "1, 1, 1, 1, 0, 0", mode)
    pad("6d", "torch.ones(2, 2, 2, 2, 2, 2, {device=D})", "torch.ones(2, 2, 2, 2, 2, 2, device=D)", "1, 1", mode)
    pad("2d_small", "torch.ones(1, 2, 3, {device=D})", "torch.ones(1, 2, 3, device=D)", "-2, -2, 0, 0", mode)
    pad("2d_small_h", "torch.ones(1, 2, 3, {device=D})", "torch.ones(1, 2, 3, device=D)", "0, 0, -1, -1", mode)
    pad("2d_small_both", "torch.ones(1, 2, 3, {device=D})", "torch.ones(1, 2, 3, device=D)", "-3, 0, -2, 0", mode)
    pad("2d_big_w", "torch.ones(1, 2, 3, {device=D})", "torch.ones(1, 2, 3, device=D)", "3, 0, 2, 0", mode)
    pad("2d_big_h", "torch.ones(1, 2, 3, {device=D})", "torch.ones(1, 2, 3, device=D)", "0, 0, 2, 0", mode)
    pad("3d_small", "torch.ones(1, 2, 2, 3, {device=D})", "torch.ones(1, 2, 2, 3, device=D)", "-2, -2, 0, 0, 0, 0", mode)
    pad("3d_small_d", "torch.ones(1, 2, 2, 3, {device=D})", "torch.ones(1, 2, 2, 3, device=D)", "0, 0, 0, 0, -1, -1", mode)
    pad("3d_big_d", "torch.ones(1, 2, 2, 3, {device=D})", "torch.ones(1, 2, 2, 3, device=D)", "0, 0, 0, 0, 2, 0", mode)
    pad("3d_empty", "torch.ones(1, 1, 1, 1, 0, {device=D})", "torch.ones(1, 1, 1, 1, 0, device=D)", "1, 1, 1, 1, 0, 0", mode)
    pad("float16", "torch.ones(1, 1, 2, {dtype=torch.float16, device=D})", "torch.ones(1, 1, 2, dtype=torch.float16, device=D)",
        "1, 1", mode)
    pad("bool", "torch.tensor({{{true, false}}}, {device=D})", "torch.tensor([[[True, False]]], device=D)", "1, 1", mode)
    pad("bool_2d", "torch.ones(1, 1, 2, 2, {dtype=torch.bool, device=D})", "torch.ones(1, 1, 2, 2, dtype=torch.bool, device=D)",
        "1, 1, 1, 1", mode)
    case(f"pad_{mode}_positional", f"nn.functional.pad(torch.ones(1, 1, 2, {{device=D}}), {{1, 1}}, '{mode}')",
         f"F.pad(torch.ones(1, 1, 2, device=D), (1, 1), '{mode}')")
    case(f"pad_{mode}_grad_fn", f"nn.functional.pad({P3}:requires_grad_(), {{1, 1}}, '{mode}')",
         f"F.pad({P3P}.requires_grad_(), (1, 1), '{mode}')")
    case(f"pad_{mode}_grad_fn_2d", f"nn.functional.pad({P3}:requires_grad_(), {{1, 1, 1, 0}}, '{mode}')",
         f"F.pad({P3P}.requires_grad_(), (1, 1, 1, 0), '{mode}')")
    case(f"pad_{mode}_grad_fn_3d", f"nn.functional.pad(torch.ones(1, 1, 2, 2, 2, {{device=D}}):requires_grad_(), "
         f"{{1, 1, 1, 0, 0, 1}}, '{mode}')",
         f"F.pad(torch.ones(1, 1, 2, 2, 2, device=D).requires_grad_(), (1, 1, 1, 0, 0, 1), '{mode}')")
    grads(f"pad_{mode}", f"nn.functional.pad({{}}, {{{{2, 1}}}}, '{mode}')", f"F.pad({{}}, (2, 1), '{mode}')",
          lua_x=f"{P3}:requires_grad_()", py_x=f"{P3P}.requires_grad_()",
          lua_w="torch.arange(12., {device=D}):reshape(1, 2, 6)", py_w="torch.arange(12., device=D).reshape(1, 2, 6)")
    grads(f"pad_{mode}_2d", f"nn.functional.pad({{}}, {{{{1, -1, 1, 1}}}}, '{mode}')", f"F.pad({{}}, (1, -1, 1, 1), '{mode}')",
          lua_x=f"{P3}:requires_grad_()", py_x=f"{P3P}.requires_grad_()",
          lua_w="torch.arange(12., {device=D}):reshape(1, 4, 3)", py_w="torch.arange(12., device=D).reshape(1, 4, 3)")
    grads(f"pad_{mode}_3d", f"nn.functional.pad({{}}, {{{{1, 0, 0, 1, 1, 1}}}}, '{mode}')",
          f"F.pad({{}}, (1, 0, 0, 1, 1, 1), '{mode}')",
          lua_x="torch.arange(8., {device=D}):reshape(1, 2, 2, 2):requires_grad_()",
          py_x="torch.arange(8., device=D).reshape(1, 2, 2, 2).requires_grad_()",
          lua_w="torch.arange(36., {device=D}):reshape(1, 4, 3, 3)", py_w="torch.arange(36., device=D).reshape(1, 4, 3, 3)")
case("pad_circular_empty_out", "nn.functional.pad(torch.ones(1, 1, 2, 2, {device=D}), {-1, -1, -1, -1}, {mode='circular'})",
     "F.pad(torch.ones(1, 1, 2, 2, device=D), (-1, -1, -1, -1), mode='circular')")
case("pad_circular_crop_all", "nn.functional.pad(torch.ones(1, 1, 3, {device=D}), {0, -3}, {mode='circular'})",
     "F.pad(torch.ones(1, 1, 3, device=D), (0, -3), mode='circular')")
case("pad_circular_empty_zero", "nn.functional.pad(torch.ones(1, 0, {device=D}), {0, 0}, {mode='circular'})",
     "F.pad(torch.ones(1, 0, device=D), (0, 0), mode='circular')")
case("pad_circular_neg_mixed", "nn.functional.pad(torch.ones(1, 1, 2, 2, {device=D}), {1, 1, -2, -1}, {mode='circular'})",
     "F.pad(torch.ones(1, 1, 2, 2, device=D), (1, 1, -2, -1), mode='circular')")
case("pad_circular_twice", f"nn.functional.pad({P3}, {{3, 3}}, {{mode='circular'}})", f"F.pad({P3P}, (3, 3), mode='circular')")
case("pad_mode_unknown", f"nn.functional.pad({P3}, {{1, 1}}, {{mode='wrap'}})", f"F.pad({P3P}, (1, 1), mode='wrap')")

# ---- F.embedding, nn.Embedding ----
EW = "torch.arange(6., {device=D}):reshape(3, 2)"
EWP = "torch.arange(6., device=D).reshape(3, 2)"
EI = "torch.tensor({{0, 2}, {1, 0}}, {device=D})"
EIP = "torch.tensor([[0, 2], [1, 0]], device=D)"
case("embedding", f"nn.functional.embedding({EI}, {EW})", f"F.embedding({EIP}, {EWP})")
case("embedding_1d", f"nn.functional.embedding(torch.tensor({{2, 2, 1}}, {{device=D}}), {EW})",
     f"F.embedding(torch.tensor([2, 2, 1], device=D), {EWP})")
case("embedding_0d", f"nn.functional.embedding(torch.tensor(1, {{device=D}}), {EW})", f"F.embedding(torch.tensor(1, device=D), {EWP})")
case("embedding_empty", f"nn.functional.embedding(torch.zeros(0, {{dtype=torch.long, device=D}}), {EW})",
     f"F.embedding(torch.zeros(0, dtype=torch.long, device=D), {EWP})")
case("embedding_int32", f"nn.functional.embedding(torch.tensor({{1, 0}}, {{dtype=torch.int32, device=D}}), {EW})",
     f"F.embedding(torch.tensor([1, 0], dtype=torch.int32, device=D), {EWP})")
case("embedding_float_index", f"nn.functional.embedding(torch.tensor({{1., 0.}}), {EW})",
     f"F.embedding(torch.tensor([1., 0.]), {EWP})")
case("embedding_bool_index", f"nn.functional.embedding(torch.tensor(true), {EW})", f"F.embedding(torch.tensor(True), {EWP})")
case("embedding_out_of_range", f"nn.functional.embedding(torch.tensor({{3}}, {{device=D}}), {EW})",
     f"F.embedding(torch.tensor([3], device=D), {EWP})")
case("embedding_negative", f"nn.functional.embedding(torch.tensor({{-1}}, {{device=D}}), {EW})",
     f"F.embedding(torch.tensor([-1], device=D), {EWP})")
case("embedding_weight_1d", "nn.functional.embedding(torch.tensor({1}, {device=D}), torch.ones(3, {device=D}))",
     "F.embedding(torch.tensor([1], device=D), torch.ones(3, device=D))")
case("embedding_padding_big", f"nn.functional.embedding(torch.tensor({{1}}, {{device=D}}), {EW}, {{padding_idx=3}})",
     f"F.embedding(torch.tensor([1], device=D), {EWP}, padding_idx=3)")
case("embedding_padding_neg_big", f"nn.functional.embedding(torch.tensor({{1}}, {{device=D}}), {EW}, {{padding_idx=-4}})",
     f"F.embedding(torch.tensor([1], device=D), {EWP}, padding_idx=-4)")
case("embedding_padding_value", f"nn.functional.embedding(torch.tensor({{0, 1}}, {{device=D}}), {EW}, 0)",
     f"F.embedding(torch.tensor([0, 1], device=D), {EWP}, 0)")
case("embedding_grad_fn", f"nn.functional.embedding({EI}, {EW}:requires_grad_())",
     f"F.embedding({EIP}, {EWP}.requires_grad_())")
EG = "torch.tensor({{{1., 2.}, {3., 4.}}, {{5., 6.}, {7., 8.}}}, {device=D})"
EGP = "torch.tensor([[[1., 2.], [3., 4.]], [[5., 6.], [7., 8.]]], device=D)"
for nm, opt, popt in (("", "", ""), ("_padding", ", {padding_idx=0}", ", padding_idx=0"),
                      ("_padding_neg", ", {padding_idx=-1}", ", padding_idx=-1")):
    case(f"embedding_grad{nm}", lua_fn(f"local w = {EW}:requires_grad_(); (nn.functional.embedding({EI}, w{opt}) * {EG}):sum():backward(); return w.grad"),
         f"(lambda w: ((F.embedding({EIP}, w{popt}) * {EGP}).sum().backward(), w.grad)[1])({EWP}.requires_grad_())")
case("embedding_second_order",
     lua_fn(f"local w = {EW}:requires_grad_(); local g = torch.autograd.grad((nn.functional.embedding({EI}, w) ^ 2):sum(), w, {{create_graph=true}})[1]; "
            "return g:detach(), torch.autograd.grad(g:sum(), w)[1]"),
     f"(lambda w: (lambda g: (g.detach(), torch.autograd.grad(g.sum(), w)[0]))"
     f"(torch.autograd.grad((F.embedding({EIP}, w) ** 2).sum(), w, create_graph=True)[0]))({EWP}.requires_grad_())")
case("nn_embedding_repr", "nn.Embedding(10, 3)", "nn.Embedding(10, 3)")
case("nn_embedding_repr_padding", "nn.Embedding(10, 3, {padding_idx=0})", "nn.Embedding(10, 3, padding_idx=0)")
case("nn_embedding_repr_padding_neg", "nn.Embedding(10, 3, {padding_idx=-1})", "nn.Embedding(10, 3, padding_idx=-1)")
case("nn_embedding_positional", "nn.Embedding(10, 3, 2)", "nn.Embedding(10, 3, 2)")
case("nn_embedding_padding_big", "nn.Embedding(10, 3, {padding_idx=10})", "nn.Embedding(10, 3, padding_idx=10)")
case("nn_embedding_padding_neg_big", "nn.Embedding(10, 3, {padding_idx=-11})", "nn.Embedding(10, 3, padding_idx=-11)")
case("nn_embedding_init", lua_fn("torch.manual_seed(0); return nn.Embedding(4, 3, {padding_idx=1}).weight"),
     "(torch.manual_seed(0), nn.Embedding(4, 3, padding_idx=1).weight)[1]")
case("nn_embedding_init_large", lua_fn("torch.manual_seed(0); return nn.Embedding(10, 3).weight"),
     "(torch.manual_seed(0), nn.Embedding(10, 3).weight)[1]")
case("nn_embedding_forward",
     lua_fn("torch.manual_seed(0); local e = nn.Embedding(5, 2):to(D); return e(torch.tensor({{1, 2}, {4, 0}}, {device=D}))"),
     "(torch.manual_seed(0), nn.Embedding(5, 2).to(D)(torch.tensor([[1, 2], [4, 0]], device=D)))[1]")
case("nn_embedding_shape", "nn.Embedding(10, 3)(torch.zeros(2, 4, {dtype=torch.long})).shape",
     "nn.Embedding(10, 3)(torch.zeros(2, 4, dtype=torch.long)).shape")
case("nn_embedding_grad",
     lua_fn("torch.manual_seed(0); local e = nn.Embedding(4, 2, {padding_idx=3}):to(D); "
            "e(torch.tensor({3, 1, 1, 0}, {device=D})):sum():backward(); return e.weight.grad"),
     "(lambda e: (e(torch.tensor([3, 1, 1, 0], device=D)).sum().backward(), e.weight.grad)[1])"
     "((torch.manual_seed(0), nn.Embedding(4, 2, padding_idx=3).to(D))[1])")
case("nn_embedding_float_input", "nn.Embedding(4, 2)(torch.tensor({1.}))", "nn.Embedding(4, 2)(torch.tensor([1.]))")
case("nn_embedding_params", lua_fn("local n = {}; for name, p in nn.Embedding(4, 2):named_parameters() do n[#n + 1] = name .. ' ' .. tostring(p.shape) end; return n"),
     "[n + ' ' + str(p.shape) for n, p in nn.Embedding(4, 2).named_parameters()]")
case("from_pretrained", "nn.Embedding.from_pretrained(torch.eye(3, {device=D}))",
     "nn.Embedding.from_pretrained(torch.eye(3, device=D))")
case("from_pretrained_frozen", "nn.Embedding.from_pretrained(torch.eye(3, {device=D})).weight.requires_grad",
     "nn.Embedding.from_pretrained(torch.eye(3, device=D)).weight.requires_grad")
case("from_pretrained_trainable", "nn.Embedding.from_pretrained(torch.eye(3, {device=D}), {freeze=false}).weight",
     "nn.Embedding.from_pretrained(torch.eye(3, device=D), freeze=False).weight")
case("from_pretrained_padding", "nn.Embedding.from_pretrained(torch.eye(3, {device=D}), {padding_idx=1})",
     "nn.Embedding.from_pretrained(torch.eye(3, device=D), padding_idx=1)")
case("from_pretrained_lookup", "nn.Embedding.from_pretrained(torch.eye(3, {device=D}))(torch.tensor({2, 0}, {device=D}))",
     "nn.Embedding.from_pretrained(torch.eye(3, device=D))(torch.tensor([2, 0], device=D))")
case("from_pretrained_1d", "nn.Embedding.from_pretrained(torch.ones(3, {device=D}))",
     "nn.Embedding.from_pretrained(torch.ones(3, device=D))")


def run_py(code):
    return repr_of(code, {"torch": torch, "nn": nn, "F": F, "D": "cpu"})


def main():
    write_expected("gen_shape_extras.py", "shape_extras_expected.lua", CASES, run_py)


if __name__ == "__main__":
    main()
