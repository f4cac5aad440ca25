#!/usr/bin/env python3
# Needs PyTorch (CPU is enough) and IPython. Writes tests/lua/out_expected.lua:
# torch functions called with out= (Note [out=], tensor/ops/out.cpp), for
# each case the gpulab (Lua) code and what PyTorch displays for the same call
# (or "Kind: message" for an error). tests/lua/test_out.lua runs each case on
# the CPU and on a virtual CUDA device.
#   python3 tests/pytorch/gen_out.py
import torch
from expected_cases import repr_of, write_expected

CASES = []


def case(name, lua, py):
    CASES.append((name, lua, py))


def lua_fn(body):
    return f"(function() {body} end)()"


ONES = "torch.ones(4, 4, {device=D})"
ONESP = "torch.ones(4, 4, device=D)"
# PyTorch's tensor tutorial: matmul and mul into a tensor made with rand_like
case("tutorial_matmul",
     lua_fn(f"local t = {ONES}; t[':, 1'] = 0; local y3 = torch.rand_like(t); "
            "local r = torch.matmul(t, t.T, {out=y3}); return {rawequal(r, y3), y3}"),
     f"(lambda t: (t.__setitem__((slice(None), 1), 0), (lambda y3: [torch.matmul(t, t.T, out=y3) is y3, y3])"
     "(torch.rand_like(t)))[1])(" + ONESP + ")")
case("tutorial_mul",
     lua_fn(f"local t = {ONES}; t[':, 1'] = 0; local z3 = torch.rand_like(t); torch.mul(t, t, {{out=z3}}); return z3"),
     f"(lambda t: (t.__setitem__((slice(None), 1), 0), (lambda z3: (torch.mul(t, t, out=z3), z3)[1])"
     "(torch.rand_like(t)))[1])(" + ONESP + ")")
case("add_resized_from_empty",
     lua_fn("local o = torch.empty(0, {device=D}); torch.add(torch.ones(2, 3, {device=D}), 2, {out=o}); return o"),
     "(lambda o: (torch.add(torch.ones(2, 3, device=D), 2, out=o), o)[1])(torch.empty(0, device=D))")
case("add_alpha_one_table",
     lua_fn("local o = torch.empty(2, {device=D}); return torch.add{torch.ones(2, {device=D}), 1, alpha=3, out=o}"),
     "torch.add(torch.ones(2, device=D), 1, alpha=3, out=torch.empty(2, device=D))")
case("int_result_into_float_out",
     "torch.add(torch.tensor({1, 2}, {device=D}), 1, {out=torch.empty(2, {device=D})})",
     "torch.add(torch.tensor([1, 2], device=D), 1, out=torch.empty(2, device=D))")
case("float_result_into_long_out",
     "torch.add(torch.ones(2, {device=D}), 1, {out=torch.empty(2, {dtype=torch.long, device=D})})",
     "torch.add(torch.ones(2, device=D), 1, out=torch.empty(2, dtype=torch.long, device=D))")
case("matmul_out_dtype",
     "torch.matmul(torch.ones(2, 2, {device=D}), torch.ones(2, 2, {device=D}), "
     "{out=torch.empty(2, 2, {dtype=torch.float64, device=D})})",
     "torch.matmul(torch.ones(2, 2, device=D), torch.ones(2, 2, device=D), "
     "out=torch.empty(2, 2, dtype=torch.float64, device=D))")
case("mul_requires_grad",
     "torch.mul(torch.ones(2, {requires_grad=true, device=D}), 2, {out=torch.empty(2, {device=D})})",
     "torch.mul(torch.ones(2, requires_grad=True, device=D), 2, out=torch.empty(2, device=D))")
case("mul_requires_grad_no_grad",
     lua_fn("local w = torch.ones(2, {requires_grad=true, device=D}); local o = torch.empty(2, {device=D}); "
            "torch.no_grad(function() torch.mul(w, 2, {out=o}) end); return o"),
     "(lambda w, o: (torch.no_grad().__enter__(), torch.mul(w, 2, out=o), torch.set_grad_enabled(True), o)[3])"
     "(torch.ones(2, requires_grad=True, device=D), torch.empty(2, device=D))")
case("exp_aliasing_input", lua_fn("local x = torch.zeros(3, {device=D}); torch.exp(x, {out=x}); return x"),
     "(lambda x: (torch.exp(x, out=x), x)[1])(torch.zeros(3, device=D))")
case("cat_cast", "torch.cat({torch.ones(1, {device=D}), torch.zeros(1, {device=D})}, {out=torch.empty(0, {dtype=torch.float64, device=D})})",
     "torch.cat([torch.ones(1, device=D), torch.zeros(1, device=D)], out=torch.empty(0, dtype=torch.float64, device=D))")
case("sum_dim", "torch.sum(torch.ones(2, 3, {device=D}), 1, {out=torch.empty(2, {device=D})})",
     "torch.sum(torch.ones(2, 3, device=D), 1, out=torch.empty(2, device=D))")
case("sum_dim_long_out", "torch.sum(torch.ones(2, 3, {device=D}), 1, {out=torch.empty(2, {dtype=torch.long, device=D})})",
     "torch.sum(torch.ones(2, 3, device=D), 1, out=torch.empty(2, dtype=torch.long, device=D))")
case("max_dim_tuple",
     "torch.max(torch.tensor({{1., 5.}, {4., 2.}}, {device=D}), 1, {out={torch.empty(0, {device=D}), "
     "torch.empty(0, {dtype=torch.long, device=D})}})",
     "torch.max(torch.tensor([[1., 5.], [4., 2.]], device=D), 1, out=(torch.empty(0, device=D), "
     "torch.empty(0, dtype=torch.long, device=D)))")
case("softmax_exact_dtype", "torch.softmax(torch.ones(2, {device=D}), 0, {out=torch.empty(2, {dtype=torch.float64, device=D})})",
     "torch.softmax(torch.ones(2, device=D), 0, out=torch.empty(2, dtype=torch.float64, device=D))")
case("index_select_dtype", "torch.index_select(torch.ones(2, {device=D}), 0, torch.tensor({0}, {device=D}), "
     "{out=torch.empty(1, {dtype=torch.float64, device=D})})",
     "torch.index_select(torch.ones(2, device=D), 0, torch.tensor([0], device=D), "
     "out=torch.empty(1, dtype=torch.float64, device=D))")
case("dot_dtype", "torch.dot(torch.ones(2, {device=D}), torch.ones(2, {device=D}), {out=torch.empty({}, {dtype=torch.float64, device=D})})",
     "torch.dot(torch.ones(2, device=D), torch.ones(2, device=D), out=torch.empty((), dtype=torch.float64, device=D))")
# factories take out's dtype and device
case("zeros_long_out", "torch.zeros(2, 3, {out=torch.empty(0, {dtype=torch.long, device=D})})",
     "torch.zeros(2, 3, out=torch.empty(0, dtype=torch.long, device=D))")
case("arange_out", "torch.arange(5, {out=torch.empty(0, {device=D})})", "torch.arange(5, out=torch.empty(0, device=D))")
case("ones_one_table", "torch.ones{2, 2, out=torch.empty(0, {dtype=torch.int32, device=D})}",
     "torch.ones(2, 2, out=torch.empty(0, dtype=torch.int32, device=D))")
case("rand_float64_out", lua_fn("torch.manual_seed(0); return torch.rand(3, {out=torch.empty(3, {dtype=torch.float64})})"),
     "(torch.manual_seed(0), torch.rand(3, out=torch.empty(3, dtype=torch.float64)))[1]")
# memory overlap, as PyTorch's TensorIterator checks it (Note [Memory overlap]):
# out= and the in-place forms refuse a written-to tensor that partly overlaps an
# input or holds one element in several places; the very same view is allowed
case("out_partial_overlap", lua_fn("local b = torch.arange(6., {device=D}); "
                                   "return torch.exp(b:narrow(0, 0, 5), {out=b:narrow(0, 1, 5)})"),
     "(lambda b: torch.exp(b[0:5], out=b[1:6]))(torch.arange(6., device=D))")
case("out_transposed_self", lua_fn("local d = torch.arange(4., {device=D}):reshape(2, 2); "
                                   "return torch.add(d, 1, {out=d:t()})"),
     "(lambda d: torch.add(d, 1, out=d.t()))(torch.arange(4., device=D).reshape(2, 2))")
case("out_expanded", "torch.add(torch.ones(2, 3, {device=D}), 1, {out=torch.zeros(3, {device=D}):expand(2, 3)})",
     "torch.add(torch.ones(2, 3, device=D), 1, out=torch.zeros(3, device=D).expand(2, 3))")
case("out_is_input", lua_fn("local c = torch.arange(6., {device=D}); torch.add(c, 1, {out=c}); return c"),
     "(lambda c: (torch.add(c, 1, out=c), c)[1])(torch.arange(6., device=D))")
case("inplace_partial_overlap", lua_fn("local a = torch.arange(6., {device=D}); "
                                       "return a:narrow(0, 1, 5):add_(a:narrow(0, 0, 5))"),
     "(lambda a: a[1:].add_(a[:5]))(torch.arange(6., device=D))")
case("inplace_expanded", "torch.zeros(3, {device=D}):expand(2, 3):exp_()",
     "torch.zeros(3, device=D).expand(2, 3).exp_()")
case("inplace_disjoint_views", lua_fn("local g = torch.arange(6., {device=D}); "
                                      "g:narrow(0, 0, 3):add_(g:narrow(0, 3, 3)); return g"),
     "(lambda g: (g[0:3].add_(g[3:6]), g)[1])(torch.arange(6., device=D))")
case("copy_into_expanded", "torch.zeros(3, {device=D}):expand(2, 3):copy_(torch.ones(2, 3, {device=D}))",
     "torch.zeros(3, device=D).expand(2, 3).copy_(torch.ones(2, 3, device=D))")

write_expected("gen_out.py", "out_expected.lua", CASES, lambda py: repr_of(py, {"torch": torch, "D": "cpu"}))
