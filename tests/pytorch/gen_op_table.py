#!/usr/bin/env python3
# Needs PyTorch (CPU is enough). Writes tests/lua/op_table_expected.lua: the
# op-by-op table. Every unary and binary row of tensor/ops/op_rows.def and
# every reduction below, over every dtype gpulab has, on fixed inputs with
# edge values; for each case PyTorch's result dtype and values, or the first
# line of its error. tests/lua/test_op_table.lua runs each case on the CPU
# and on a virtual CUDA device and compares.
#   python3 tests/pytorch/gen_op_table.py
import math, os, re
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
rows = open(os.path.join(ROOT, "tensor/ops/op_rows.def")).read()
UNARY = re.findall(r"^GL_UNARY\(\w+,\s*(\w+),", rows, re.M)
BINARY = re.findall(r"^GL_BINARY\(\w+,\s*(\w+),", rows, re.M)
# (name, takes dim): full reductions, and over dim 1 of the 2x4 input
REDUCE = ["sum", "prod", "mean", "amax", "amin", "max", "min", "argmax", "argmin",
          "std", "var", "any", "all", "logsumexp", "nansum", "count_nonzero", "median"]
DIM_REQUIRED = {"logsumexp"}

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64",
          "float16", "bfloat16", "float32", "float64"]
nan, inf = math.nan, math.inf
# a, b: the operands of the elementwise cases; r: 8 values, reduced as 2x4.
# Floats are exact in bfloat16, so both sides build the same tensors.
INPUTS = {
    "bool": dict(a=[False, True, False, True, True, False, True, False],
                 b=[False, False, True, True, True, True, False, False],
                 r=[True, False, True, True, False, False, False, False]),
    "uint8": dict(a=[0, 1, 2, 3, 7, 100, 254, 255], b=[1, 2, 255, 3, 255, 7, 2, 16],
                  r=[3, 0, 255, 7, 1, 2, 9, 100]),
    "int8": dict(a=[-128, -7, -1, 0, 1, 5, 100, 127], b=[-1, -2, 7, 3, 5, -3, 2, -128],
                 r=[-3, 0, 127, -128, 1, 2, 9, -100]),
    "int16": dict(a=[-32768, -7, -1, 0, 1, 5, 300, 32767], b=[-1, -2, 7, 3, 5, -3, 2, -32768],
                  r=[-3, 0, 32767, -32768, 1, 2, 9, -100]),
    "int32": dict(a=[-2147483648, -7, -1, 0, 1, 5, 300, 2147483647], b=[3, -2, 7, 3, 5, -3, 2, -2147483648],
                  r=[-3, 0, 2147483647, -2147483648, 1, 2, 9, -100]),
    "int64": dict(a=[-9007199254740992, -7, -1, 0, 1, 5, 300, 9007199254740992],
                  b=[3, -2, 7, 3, 5, -3, 2, -9007199254740992],
                  r=[-3, 0, 40000, -70000, 1, 2, 9, -100]),
}
FA = [-3.5, -1.0, -0.5, -0.0, 0.0, 0.375, 1.0, 2.5, 100.0, inf, -inf, nan]
FB = [2.0, -2.0, 0.25, 3.0, -0.5, 0.0, 1.5, -3.5, 0.5, 2.0, 1.0, 1.0]
FR = [1.5, -2.0, 0.25, 3.0, -0.5, 0.0, 7.0, 2.5]
for d in DTYPES[6:]:
    INPUTS[d] = dict(a=FA, b=FB, r=FR)
SCALARS = {"s3": 3, "sh": 0.5}


def first_line(e):
    return str(e).strip().split("\n")[0]


def values(t):
    if t.dtype == torch.bool:
        return [int(v) for v in t.reshape(-1).tolist()]
    return t.reshape(-1).double().tolist() if t.is_floating_point() else t.reshape(-1).tolist()


def record(fn):
    try:
        r = fn()
    except Exception as e:  # PyTorch's refusal is the expected result
        return dict(err=first_line(e))
    if isinstance(r, tuple):  # (values, indices)
        return dict(dtype=str(r[0].dtype), v=values(r[0]), idx=values(r[1]))
    return dict(dtype=str(r.dtype), v=values(r))


def tensor(d, key, shape=None):
    t = torch.tensor(INPUTS[d][key], dtype=getattr(torch, d))
    return t.reshape(shape) if shape else t


CASES = []  # (op, form, dtype, record)
for d in DTYPES:
    for op in UNARY:
        f = getattr(torch, op, None)
        if f:
            CASES.append((op, "u", d, record(lambda: f(tensor(d, "a")))))
    for op in BINARY:
        f = getattr(torch, op, None)
        if not f:
            continue
        CASES.append((op, "t", d, record(lambda: f(tensor(d, "a"), tensor(d, "b")))))
        for form, s in SCALARS.items():
            CASES.append((op, form, d, record(lambda: f(tensor(d, "a"), s))))
    for op in REDUCE:
        f = getattr(torch, op)
        if op not in DIM_REQUIRED:
            CASES.append((op, "r", d, record(lambda: f(tensor(d, "r", (2, 4))))))
        CASES.append((op, "r1", d, record(lambda: f(tensor(d, "r", (2, 4)), 1))))


def lua_num(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if math.isnan(v):
        return "N"
    if math.isinf(v):
        return "I" if v > 0 else "-I"
    return repr(v)


def lua_str(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def lua_list(vs):
    return "{" + ",".join(lua_num(v) for v in vs) + "}"


# Seeded CPU draws in the half types (PyTorch draws their uniforms in float),
# and clamp's gradient at and beyond its bounds.
RAND = []
for d in ("float16", "bfloat16", "float32"):
    for fn, n in (("rand", 5), ("randn", 5), ("randn", 17)):
        torch.manual_seed(0)
        RAND.append((fn, n, d, getattr(torch, fn)(n, dtype=getattr(torch, d)).tolist()))
CLAMP_X = [-1.0, 0.0, 0.5, 1.0, 2.0]
CLAMP = []
for lo, hi in ((0.0, 1.0), (0.0, None), (None, 1.0)):
    x = torch.tensor(CLAMP_X, requires_grad=True)
    x.clamp(lo, hi).sum().backward()
    CLAMP.append((lo, hi, x.grad.tolist()))

out = os.path.join(ROOT, "tests/lua/op_table_expected.lua")
with open(out, "w") as f:
    f.write(f"-- Generated by tests/pytorch/gen_op_table.py from PyTorch {torch.__version__.split('+')[0]}: do not edit.\n")
    f.write("-- inputs[dtype] = {a, b, r}; cases: {op, form, dtype, result dtype or false, values, indices}\n")
    f.write("-- or {op, form, dtype, error = first line}. form: u unary(a), t op(a, b), s3/sh op(a, 3/0.5),\n")
    f.write("-- r op(r:view(2, 4)), r1 op(r:view(2, 4), 1).\n")
    f.write("local N, I = 0/0, math.huge\nlocal M = {inputs = {}, scalars = {s3 = 3, sh = 0.5}}\n")
    for d in DTYPES:
        i = INPUTS[d]
        f.write(f"M.inputs.{d} = {{a={lua_list(i['a'])}, b={lua_list(i['b'])}, r={lua_list(i['r'])}}}\n")
    f.write("M.cases = {\n")
    for op, form, d, r in CASES:
        if "err" in r:
            f.write(f"{{'{op}','{form}','{d}',err={lua_str(r['err'])}}},\n")
        else:
            idx = "," + lua_list(r["idx"]) if "idx" in r else ""
            f.write(f"{{'{op}','{form}','{d}','{r['dtype']}',{lua_list(r['v'])}{idx}}},\n")
    f.write("}\n-- {fn, n, dtype, values after torch.manual_seed(0)}\nM.rand = {\n")
    for fn, n, d, v in RAND:
        f.write(f"{{'{fn}',{n},'{d}',{lua_list(v)}}},\n")
    f.write(f"}}\n-- x:clamp(min, max):sum():backward() for x = clamp_x: {{min, max, x.grad}}\n")
    f.write(f"M.clamp_x = {lua_list(CLAMP_X)}\nM.clamp = {{\n")
    for lo, hi, g in CLAMP:
        f.write(f"{{{'nil' if lo is None else lua_num(lo)},{'nil' if hi is None else lua_num(hi)},{lua_list(g)}}},\n")
    f.write("}\nreturn M\n")
print(f"{len(CASES)} cases -> {os.path.relpath(out, ROOT)}")
