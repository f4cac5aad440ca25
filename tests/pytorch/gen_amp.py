#!/usr/bin/env python3
# Needs PyTorch (CPU is enough) and IPython. Writes tests/lua/amp_expected.lua
# for tests/lua/test_amp.lua (torch.autocast, torch.amp.GradScaler; Note
# [Autocast] in tensor/autocast/autocast.h):
#   cpu:    gpulab code under torch.autocast('cpu') and what PyTorch's CPU
#           autocast displays for the same code;
#   cuda:   gpulab code under torch.autocast('cuda') on a virtual device, and
#           what PyTorch displays for the casts CUDA autocast makes, written out
#           (PyTorch here has no CUDA), on the CPU;
#   policy: per op of tensor/autocast/autocast_rows.def, the result dtype under
#           each device type's autocast for float32 and float16 inputs: the CPU's
#           from PyTorch's CPU autocast, CUDA's from its policy class, each
#           class checked here against the kernels the installed PyTorch
#           registers for AutocastCUDA;
#   scaler: GradScaler sequences on 'cpu', as PyTorch's GradScaler('cpu').
#   python3 tests/pytorch/gen_amp.py
import os

import torch
import torch.nn.functional as F
from expected_cases import lua_str, repr_of

CPU, CUDA, SCALER = [], [], []


def under(dev, fn, **kw):
    with torch.autocast(dev, **kw):
        return fn()


def fn_lua(body):
    return f"(function() {body} end)()"


def ac_lua(dev, body, opts=""):
    return f"torch.autocast('{dev}', {opts + ', ' if opts else ''}function() {body} end)"


# shared inputs: exact in float16 and bfloat16, so that casts lose nothing
INPUTS_LUA = ("local A = torch.tensor({{1., 2., 3.}, {4., 5., 6.}}, {device=D}); "
              "local B = torch.tensor({{1., 0.5}, {2., 1.}, {0.25, 3.}}, {device=D}); "
              "local V = torch.tensor({1., 2., 3.}, {device=D}); ")
INPUTS_PY = dict(
    A=lambda d: torch.tensor([[1., 2., 3.], [4., 5., 6.]], device=d),
    B=lambda d: torch.tensor([[1., .5], [2., 1.], [.25, 3.]], device=d),
    V=lambda d: torch.tensor([1., 2., 3.], device=d))


def env(d="cpu"):
    e = {"torch": torch, "F": F, "D": d, "under": under}
    e.update({k: f(d) for k, f in INPUTS_PY.items()})
    return e


def cpu(name, lua_body, py):
    CPU.append((name, fn_lua(INPUTS_LUA + lua_body), py))


# ---- CPU autocast against PyTorch's ----
cpu("mm_bfloat16", "return " + ac_lua("cpu", "return torch.mm(A, B)"), "under('cpu', lambda: torch.mm(A, B))")
cpu("matmul_float16", "return " + ac_lua("cpu", "return A:matmul(B)", "{dtype=torch.float16}"),
    "under('cpu', lambda: A.matmul(B), dtype=torch.float16)")
cpu("linear_graph", "local W = B:t():clone():requires_grad_(); "
    "return " + ac_lua("cpu", "return nn.functional.linear(A, W, torch.ones(2))"),
    "under('cpu', lambda: F.linear(A, B.t().clone().requires_grad_(), torch.ones(2)))")
cpu("linear_weight_grad_float32", "local W = B:t():clone():requires_grad_(); "
    "local y = " + ac_lua("cpu", "return nn.functional.linear(A, W)") + "; y:sum():backward(); return W.grad",
    "(lambda W: (under('cpu', lambda: F.linear(A, W)).sum().backward(), W.grad)[1])(B.t().clone().requires_grad_())")
cpu("nested_disabled", "return " + ac_lua("cpu", "return torch.autocast('cpu', {enabled=false}, function() "
                                                "return torch.mm(A, B) end)"),
    "under('cpu', lambda: under('cpu', lambda: torch.mm(A, B), enabled=False))")
cpu("after_product_ops_keep_bfloat16", "return " + ac_lua("cpu", "local y = torch.mm(A, B); "
                                                             "return {torch.softmax(y, 1), y:exp(), y:sum()}"),
    "under('cpu', lambda: (lambda y: [torch.softmax(y, 1), y.exp(), y.sum()])(torch.mm(A, B)))")
cpu("cross_entropy_float32", "return " + ac_lua("cpu", "return nn.functional.cross_entropy(torch.mm(A, B), "
                                                     "torch.tensor({0, 1}))"),
    "under('cpu', lambda: F.cross_entropy(torch.mm(A, B), torch.tensor([0, 1])))")
cpu("mse_loss_float32", "return " + ac_lua("cpu", "return nn.functional.mse_loss(torch.mm(A, B), torch.ones(2, 2))"),
    "under('cpu', lambda: F.mse_loss(torch.mm(A, B), torch.ones(2, 2)))")
cpu("cat_promotes", "return " + ac_lua("cpu", "return torch.cat({torch.mm(A, B), torch.ones(1, 2)})"),
    "under('cpu', lambda: torch.cat([torch.mm(A, B), torch.ones(1, 2)]))")
cpu("stack_low", "return " + ac_lua("cpu", "return torch.stack({torch.mm(A, B), torch.mm(A, B)}).dtype"),
    "under('cpu', lambda: torch.stack([torch.mm(A, B), torch.mm(A, B)]).dtype)")
cpu("out_call_runs_as_called", "return " + ac_lua("cpu", "return torch.mm(A, B, {out=torch.empty(2, 2)})"),
    "under('cpu', lambda: torch.mm(A, B, out=torch.empty(2, 2)))")
cpu("float64_untouched", "return " + ac_lua("cpu", "return torch.mm(A:double(), B:double())"),
    "under('cpu', lambda: torch.mm(A.double(), B.double()))")
cpu("trace_float32", "return " + ac_lua("cpu", "return torch.trace(torch.mm(A, B))"),
    "under('cpu', lambda: torch.trace(torch.mm(A, B)))")
cpu("conv2d_bfloat16", "return " + ac_lua("cpu", "return nn.functional.conv2d(A:reshape(1, 1, 2, 3), "
                                                "B:t():reshape(1, 1, 2, 3))"),
    "under('cpu', lambda: F.conv2d(A.reshape(1, 1, 2, 3), B.t().reshape(1, 1, 2, 3)))")
cpu("batch_norm_mixed", "local y = " + ac_lua("cpu", "return nn.functional.conv2d(A:reshape(1, 1, 2, 3), "
                                                  "torch.ones(2, 1, 1, 1))") +
    "; return nn.functional.batch_norm(y, torch.zeros(2), torch.ones(2), torch.ones(2), torch.zeros(2), true)",
    "F.batch_norm(under('cpu', lambda: F.conv2d(A.reshape(1, 1, 2, 3), torch.ones(2, 1, 1, 1))), torch.zeros(2), "
    "torch.ones(2), torch.ones(2), torch.zeros(2), True)")
cpu("layer_norm_mixed", "return nn.functional.layer_norm(" + ac_lua("cpu", "return torch.mm(A, B)") +
    ", {2}, torch.ones(2), torch.zeros(2))",
    "F.layer_norm(under('cpu', lambda: torch.mm(A, B)), (2,), torch.ones(2), torch.zeros(2))")
cpu("state_inside_and_after", "local inside = " + ac_lua("cpu", "return {torch.is_autocast_enabled('cpu'), "
                                                        "torch.get_autocast_dtype('cpu')}", "{dtype=torch.float16}") +
    "; return {inside[1], inside[2], torch.is_autocast_enabled('cpu'), torch.get_autocast_dtype('cpu')}",
    "(lambda i: [i[0], i[1], torch.is_autocast_enabled('cpu'), torch.get_autocast_dtype('cpu')])"
    "(under('cpu', lambda: [torch.is_autocast_enabled('cpu'), torch.get_autocast_dtype('cpu')], dtype=torch.float16))")
cpu("is_autocast_enabled_default_is_cuda", "return " + ac_lua("cpu", "return torch.is_autocast_enabled()"),
    "under('cpu', lambda: torch.is_autocast_enabled())")
cpu("device_type_not_str", "return torch.autocast(0)", "torch.autocast(0)")
cpu("device_type_malformed", "return torch.autocast('gpu')", "torch.autocast('gpu')")
cpu("default_dtypes", "return {torch.get_autocast_dtype('cpu'), torch.get_autocast_dtype('cuda')}",
    "[torch.get_autocast_dtype('cpu'), torch.get_autocast_dtype('cuda')]")
cpu("grad_function_backward_outside", "local W = B:clone():requires_grad_(); "
    "local loss = " + ac_lua("cpu", "return torch.mm(A, W):sum()") + "; loss:backward(); return {loss, W.grad}",
    "(lambda W: (lambda loss: (loss.backward(), [loss, W.grad])[1])(under('cpu', lambda: torch.mm(A, W).sum())))"
    "(B.clone().requires_grad_())")

# ---- CUDA autocast, its casts written out for PyTorch on the CPU ----
def cuda(name, lua_body, py):
    CUDA.append((name, fn_lua(INPUTS_LUA + lua_body), py))


H = ".half()"
cuda("mm_float16", "return " + ac_lua("cuda", "return torch.mm(A, B)"), "torch.mm(A.half(), B.half())")
cuda("linear_bias_grad", "local W = B:t():clone():requires_grad_(); local b = torch.ones(2, {device=D, requires_grad=true}); "
     "local y = " + ac_lua("cuda", "return nn.functional.linear(A, W, b)") + "; y:sum():backward(); "
     "return {y, W.grad, b.grad}",
     "(lambda W, b: (lambda y: (y.sum().backward(), [y, W.grad, b.grad])[1])(F.linear(A.half(), W.half(), b.half())))"
     "(B.t().clone().requires_grad_(), torch.ones(2, requires_grad=True))")
cuda("exp_to_float32", "return " + ac_lua("cuda", "return torch.mm(A, B):exp()"), "torch.mm(A.half(), B.half()).float().exp()")
cuda("softmax_sum_float32_mean_not", "return " + ac_lua("cuda", "local y = torch.mm(A, B); "
                                                         "return {torch.softmax(y, 1), y:sum(), y:mean()}"),
     "(lambda y: [torch.softmax(y.float(), 1), y.float().sum(), y.mean()])(torch.mm(A.half(), B.half()))")
cuda("pow_float32", "return " + ac_lua("cuda", "return torch.mm(A, B) ^ 2"), "torch.mm(A.half(), B.half()).float() ** 2")
cuda("number_over_tensor_float32", "return " + ac_lua("cuda", "return 2 / torch.mm(A, B)"),
     "2 / torch.mm(A.half(), B.half()).float()")
cuda("relu_stays_float16", "return " + ac_lua("cuda", "return torch.relu(torch.mm(A, B) - 10)"),
     "torch.relu(torch.mm(A.half(), B.half()) - 10)")
cuda("cross_entropy", "return " + ac_lua("cuda", "return nn.functional.cross_entropy(torch.mm(A, B), "
                                               "torch.tensor({0, 1}, {device=D}))"),
     "F.cross_entropy(torch.mm(A.half(), B.half()).float(), torch.tensor([0, 1]))")
cuda("dot_promotes", "return " + ac_lua("cuda", "return {torch.dot(V:half(), V:half()), torch.dot(V:half(), V)}"),
     "[torch.dot(V.half(), V.half()), torch.dot(V.float(), V)]")
cuda("binary_cross_entropy_banned", "return " + ac_lua("cuda", "return nn.functional.binary_cross_entropy("
                                                             "torch.sigmoid(V), torch.ones(3, {device=D}))"),
     "exec('raise RuntimeError(\"torch.nn.functional.binary_cross_entropy and torch.nn.BCELoss are unsafe to "
     "autocast.\")')")
cuda("bce_with_logits_float32", "return " + ac_lua("cuda", "return nn.functional.binary_cross_entropy_with_logits("
                                                         "V:half(), torch.ones(3, {device=D}))"),
     "F.binary_cross_entropy_with_logits(V, torch.ones(3))")
cuda("conv2d_float16", "return " + ac_lua("cuda", "return nn.functional.conv2d(A:reshape(1, 1, 2, 3), "
                                                "B:t():reshape(1, 1, 2, 3))"),
     "F.conv2d(A.reshape(1, 1, 2, 3).half(), B.t().reshape(1, 1, 2, 3).half())")
cuda("cpu_tensors_untouched", "return " + ac_lua("cuda", "return torch.mm(A:cpu(), B:cpu())"), "torch.mm(A, B)")

# ---- per-op policies ----
# (row, aten name in PyTorch's registrations, Lua call on X (and V, I), Python call)
X_LUA = "local X = torch.tensor({{2., 1.}, {1., 3.}}, {device=D, dtype=DT}); local V = X[1]; " \
        "local I = torch.tensor({{0, 1}, {1, 0}}, {device=D}); local T = torch.tensor({0, 1}, {device=D}); "
OPS = [
    ("mm", "mm", "torch.mm(X, X)", "torch.mm(X, X)"),
    ("bmm", "bmm", "torch.bmm(X:unsqueeze(0), X:unsqueeze(0))", "torch.bmm(X.unsqueeze(0), X.unsqueeze(0))"),
    ("addmm", "addmm", "torch.addmm(X, X, X)", "torch.addmm(X, X, X)"),
    ("matmul", "matmul", "torch.matmul(X, X)", "torch.matmul(X, X)"),
    ("linear", "linear", "nn.functional.linear(X, X)", "F.linear(X, X)"),
    ("conv2d", "conv2d", "nn.functional.conv2d(X:reshape(1, 1, 2, 2), X:reshape(1, 1, 2, 2))",
     "F.conv2d(X.reshape(1, 1, 2, 2), X.reshape(1, 1, 2, 2))"),
    ("mv", "mv", "torch.mv(X, V)", "torch.mv(X, V)"),
    ("einsum", "einsum", "torch.einsum('ij,jk->ik', X, X)", "torch.einsum('ij,jk->ik', X, X)"),
    ("dot", "dot", "torch.dot(V, V)", "torch.dot(V, V)"),
    ("addcmul", "addcmul", "torch.addcmul(X, X, X)", "torch.addcmul(X, X, X)"),
    ("addcdiv", "addcdiv", "torch.addcdiv(X, X, X)", "torch.addcdiv(X, X, X)"),
    ("atan2", "atan2", "torch.atan2(X, X)", "torch.atan2(X, X)"),
    ("scatter_add", "scatter_add", "torch.scatter_add(X, 0, I, X)", "torch.scatter_add(X, 0, I, X)"),
    ("cat", "cat", "torch.cat({X, X})", "torch.cat([X, X])"),
    ("stack", "stack", "torch.stack({X, X})", "torch.stack([X, X])"),
] + [(n, n, f"torch.{n}({a})", f"torch.{n}({a})") for n, a in [
    ("exp", "X"), ("expm1", "X"), ("log", "X"), ("log2", "X"), ("log10", "X"), ("log1p", "X"), ("reciprocal", "X"),
    ("rsqrt", "X"), ("acos", "X / 4"), ("asin", "X / 4"), ("cosh", "X"), ("sinh", "X"), ("tan", "X"),
    ("erfinv", "X / 4")]] + [
    ("pow", "pow", "torch.pow(X, 2)", "torch.pow(X, 2)"),
    ("softmax", "softmax", "torch.softmax(X, 0)", "torch.softmax(X, 0)"),
    ("log_softmax", "log_softmax", "torch.log_softmax(X, 0)", "torch.log_softmax(X, 0)"),
    ("sum", "sum", "torch.sum(X)", "torch.sum(X)"),
    ("cumsum", "cumsum", "torch.cumsum(X, 0)", "torch.cumsum(X, 0)"),
    ("cumprod", "cumprod", "torch.cumprod(X, 0)", "torch.cumprod(X, 0)"),
    ("norm", "norm", "torch.norm(X)", "torch.norm(X)"),
    ("vector_norm", "linalg_vector_norm", "torch.linalg.vector_norm(X)", "torch.linalg.vector_norm(X)"),
    ("logsumexp", "logsumexp", "torch.logsumexp(X, 0)", "torch.logsumexp(X, 0)"),
    ("layer_norm", "layer_norm", "nn.functional.layer_norm(X, {2})", "F.layer_norm(X, (2,))"),
    ("prod", "prod", "torch.prod(X)", "torch.prod(X)"),
    ("mse_loss", "mse_loss", "nn.functional.mse_loss(X, X)", "F.mse_loss(X, X)"),
    ("cross_entropy", "cross_entropy_loss", "nn.functional.cross_entropy(X, T)", "F.cross_entropy(X, T)"),
    ("nll_loss", "nll_loss", "nn.functional.nll_loss(X, T)", "F.nll_loss(X, T)"),
    ("l1_loss", "l1_loss", "nn.functional.l1_loss(X, X)", "F.l1_loss(X, X)"),
    ("smooth_l1_loss", "smooth_l1_loss", "nn.functional.smooth_l1_loss(X, X)", "F.smooth_l1_loss(X, X)"),
    ("huber_loss", "huber_loss", "nn.functional.huber_loss(X, X)", "F.huber_loss(X, X)"),
    ("binary_cross_entropy_with_logits", "binary_cross_entropy_with_logits",
     "nn.functional.binary_cross_entropy_with_logits(X, X / 4)", "F.binary_cross_entropy_with_logits(X, X / 4)"),
    ("binary_cross_entropy", "binary_cross_entropy", "nn.functional.binary_cross_entropy(X / 4, X / 4)",
     "F.binary_cross_entropy(X / 4, X / 4)"),
    ("trace", "trace", "torch.trace(X)", "torch.trace(X)"),
    ("linalg_inv", "linalg_inv", "torch.linalg.inv(X)", "torch.linalg.inv(X)"),
    ("linalg_solve", "linalg_solve", "torch.linalg.solve(X, X)", "torch.linalg.solve(X, X)"),
    ("linalg_qr", "linalg_qr", "(torch.linalg.qr(X))", "torch.linalg.qr(X)[0]"),
    ("linalg_svdvals", "linalg_svdvals", "torch.linalg.svdvals(X)", "torch.linalg.svdvals(X)"),
]
# CUDA's classes, as PyTorch's documentation lists them (torch.amp's "CUDA Ops that can autocast to ...").
CUDA_LOWER = {"mm", "bmm", "addmm", "matmul", "linear", "conv2d", "mv", "einsum"}
CUDA_FP32 = {"exp", "expm1", "log", "log2", "log10", "log1p", "reciprocal", "rsqrt", "acos", "asin", "cosh", "sinh",
             "tan", "erfinv", "pow", "softmax", "log_softmax", "sum", "cumsum", "cumprod", "norm", "vector_norm",
             "logsumexp", "layer_norm", "prod", "mse_loss", "cross_entropy", "nll_loss", "l1_loss", "smooth_l1_loss",
             "huber_loss", "binary_cross_entropy_with_logits"}
CUDA_PROMOTE = {"dot", "addcmul", "addcdiv", "atan2", "scatter_add"}
CUDA_BANNED = {"binary_cross_entropy"}


def registered(aten, key):
    names = [aten] + {"pow": ["pow.Tensor_Scalar"], "softmax": ["softmax.int"], "log_softmax": ["log_softmax.int"],
                      "norm": ["norm.Scalar"], "sum": ["sum"]}.get(aten, [])
    for n in names:
        try:
            d = torch._C._dispatch_dump("aten::" + n)
        except RuntimeError:
            continue
        if (key + "[") in d or (key + ":") in d:
            return True
    return False


def run_dtype(py, dt, autocast_cpu):
    X = torch.tensor([[2., 1.], [1., 3.]], dtype=dt)
    e = {"torch": torch, "F": F, "X": X, "V": X[0], "I": torch.tensor([[0, 1], [1, 0]]), "T": torch.tensor([0, 1])}
    try:
        return str((under("cpu", lambda: eval(py, e)) if autocast_cpu else eval(py, e)).dtype)
    except Exception:  # noqa: BLE001 - an op PyTorch has no kernel for at that dtype
        return "error"


def cuda_dtype(row, py, dt):
    if row in CUDA_BANNED:
        return "error"
    if row in CUDA_LOWER:
        return "torch.float16"
    if row in CUDA_FP32:
        return "torch.float32"
    return run_dtype(py, dt, False)  # promote (one input dtype) and untouched ops run as called


POLICY = []
for row, aten, lua, py in OPS:
    # cross_entropy is composite on CUDA: its log_softmax and nll_loss run in float32
    on_cuda = registered(aten, "AutocastCUDA") or (row == "cross_entropy" and registered("nll_loss", "AutocastCUDA"))
    assert on_cuda == (row in CUDA_LOWER | CUDA_FP32 | CUDA_PROMOTE | CUDA_BANNED), (row, on_cuda)
    for dt in (torch.float32, torch.bfloat16):
        POLICY.append((row, "cpu", str(dt), X_LUA + "return " + lua, run_dtype(py, dt, True)))
    for dt in (torch.float32, torch.float16):
        POLICY.append((row, "cuda", str(dt), X_LUA + "return " + lua, cuda_dtype(row, py, dt)))


# ---- GradScaler('cpu') ----
def scaler(name, lua, py):
    SCALER.append((name, fn_lua(lua), py))


def scaler_env():
    e = env()

    def train(steps, grads, **kw):
        w = torch.ones(2, requires_grad=True)
        opt = torch.optim.SGD([w], lr=0.5)
        s = torch.amp.GradScaler("cpu", **kw)
        seen = []
        for g in grads[:steps]:
            opt.zero_grad()
            s.scale((w * torch.tensor(g)).sum()).backward()
            s.step(opt)
            s.update()
            seen.append([s.get_scale(), s._get_growth_tracker()])
        return [w, seen]
    e["train"] = train
    return e


TRAIN_LUA = ("local function train(steps, grads, kw) local w = torch.ones(2, {requires_grad=true}); "
             "local opt = torch.optim.SGD({w}, {lr=0.5}); local s = torch.amp.GradScaler('cpu', kw or {}); "
             "local seen = {} for i = 1, steps do opt:zero_grad(); "
             "s:scale((w * torch.tensor(grads[i])):sum()):backward(); s:step(opt); s:update(); "
             "seen[i] = {s:get_scale(), s:_get_growth_tracker()} end return {w, seen} end; ")
scaler("good_steps", TRAIN_LUA + "return train(2, {{1., 2.}, {0.5, 0.5}})", "train(2, [[1., 2.], [.5, .5]])")
scaler("overflow_skips_and_backs_off", TRAIN_LUA + "return train(3, {{1., 2.}, {math.huge, 1.}, {0. / 0., 1.}})",
       "train(3, [[1., 2.], [float('inf'), 1.], [float('nan'), 1.]])")
scaler("growth_after_interval", TRAIN_LUA + "return train(5, {{1., 1.}, {1., 1.}, {1., 1.}, {1., 1.}, {1., 1.}}, "
       "{growth_interval=2, init_scale=4.0})",
       "train(5, [[1., 1.]] * 5, growth_interval=2, init_scale=4.0)")
scaler("scale_tensor", "return torch.amp.GradScaler('cpu'):scale(torch.tensor(2.))",
       "torch.amp.GradScaler('cpu').scale(torch.tensor(2.))")
scaler("scale_list", "return torch.amp.GradScaler('cpu', {init_scale=8.0}):scale({torch.tensor(1.), torch.tensor(2.)})",
       "torch.amp.GradScaler('cpu', init_scale=8.0).scale([torch.tensor(1.), torch.tensor(2.)])")
scaler("get_scale_before_use", "return torch.amp.GradScaler('cpu'):get_scale()",
       "torch.amp.GradScaler('cpu').get_scale()")
scaler("disabled", "local s = torch.amp.GradScaler('cpu', {enabled=false}); "
       "return {s:get_scale(), s:is_enabled(), s:scale(torch.tensor(3.))}",
       "(lambda s: [s.get_scale(), s.is_enabled(), s.scale(torch.tensor(3.))])"
       "(torch.amp.GradScaler('cpu', enabled=False))")
scaler("bad_growth_factor", "return torch.amp.GradScaler('cpu', {growth_factor=1.0})",
       "torch.amp.GradScaler('cpu', growth_factor=1.0)")
scaler("bad_backoff_factor", "return torch.amp.GradScaler('cpu', {backoff_factor=1.0})",
       "torch.amp.GradScaler('cpu', backoff_factor=1.0)")
STEP_LUA = ("local w = torch.ones(2, {requires_grad=true}); local opt = torch.optim.SGD({w}, {lr=0.5}); "
            "local s = torch.amp.GradScaler('cpu'); s:scale(w:sum()):backward(); ")
STEP_PY = ("(lambda w: (lambda opt, s: (s.scale(w.sum()).backward(), {body})[-1])"
           "(torch.optim.SGD([w], lr=0.5), torch.amp.GradScaler('cpu')))(torch.ones(2, requires_grad=True))")
scaler("unscale_twice", STEP_LUA + "s:unscale_(opt); s:unscale_(opt)", STEP_PY.format(body="s.unscale_(opt), s.unscale_(opt)"))
scaler("step_twice", STEP_LUA + "s:step(opt); s:step(opt)", STEP_PY.format(body="s.step(opt), s.step(opt)"))
scaler("unscale_after_step", STEP_LUA + "s:step(opt); s:unscale_(opt)", STEP_PY.format(body="s.step(opt), s.unscale_(opt)"))
scaler("unscale_then_step_grads", STEP_LUA + "s:unscale_(opt); local g = w.grad:clone(); s:step(opt); return {g, w}",
       STEP_PY.format(body="s.unscale_(opt), (lambda g: (s.step(opt), [g, w])[1])(w.grad.clone())"))
scaler("update_without_scale", "torch.amp.GradScaler('cpu'):update()", "torch.amp.GradScaler('cpu').update()")
scaler("update_new_scale", STEP_LUA + "s:step(opt); s:update(16.0); return s:get_scale()",
       STEP_PY.format(body="s.step(opt), s.update(16.0), s.get_scale()"))
scaler("state_dict", STEP_LUA + "s:step(opt); s:update(); local sd = s:state_dict(); "
       "return {sd.scale, sd.growth_factor, sd.backoff_factor, sd.growth_interval, sd._growth_tracker}",
       STEP_PY.format(body="s.step(opt), s.update(), (lambda sd: [sd['scale'], sd['growth_factor'], "
                           "sd['backoff_factor'], sd['growth_interval'], sd['_growth_tracker']])(s.state_dict())"))
scaler("load_empty_state_dict", "torch.amp.GradScaler('cpu'):load_state_dict({})",
       "torch.amp.GradScaler('cpu').load_state_dict({})")
scaler("fp16_grads_refused", "local w = torch.ones(2, {dtype=torch.float16, requires_grad=true}); "
       "local opt = torch.optim.SGD({w}, {lr=0.5}); local s = torch.amp.GradScaler('cpu'); "
       "s:scale(w:sum()):backward(); s:step(opt)",
       "(lambda w: (lambda opt, s: (s.scale(w.sum()).backward(), s.step(opt)))(torch.optim.SGD([w], lr=0.5), "
       "torch.amp.GradScaler('cpu')))(torch.ones(2, dtype=torch.float16, requires_grad=True))")
scaler("update_scale_op", "local s, t = torch.tensor({4.}), torch.tensor({1}, {dtype=torch.int32}); "
       "torch._amp_update_scale_(s, t, torch.tensor({0.}), 2, 0.5, 2); return {s, t}",
       "(lambda s, t: (torch._amp_update_scale_(s, t, torch.tensor([0.]), 2, 0.5, 2), [s, t])[1])"
       "(torch.tensor([4.]), torch.tensor([1], dtype=torch.int32))")
scaler("unscale_op", "local g, f = {torch.tensor({2., 4.}), torch.tensor({1., 0. / 0.})}, torch.zeros(1); "
       "torch._amp_foreach_non_finite_check_and_unscale_(g, f, torch.tensor({0.5})); return {g[1], g[2], f}",
       "(lambda g, f: (torch._amp_foreach_non_finite_check_and_unscale_(g, f, torch.tensor([0.5])), "
       "[g[0], g[1], f])[1])([torch.tensor([2., 4.]), torch.tensor([1., float('nan')])], torch.zeros(1))")


def write():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lua", "amp_expected.lua")
    lines = [f"-- Generated by tests/pytorch/gen_amp.py from PyTorch {torch.__version__.split('+')[0]}: do not edit.",
             "return {"]
    for section, cases, run in (("cpu", CPU, lambda py: repr_of(py, env())),
                                ("cuda", CUDA, lambda py: repr_of(py, env())),
                                ("scaler", SCALER, lambda py: repr_of(py, scaler_env()))):
        lines.append(f"  {section} = {{  -- {{name, gpulab code (D: the device), what PyTorch prints}}")
        for name, lua, py in cases:
            lines.append(f"    {{{lua_str(name)}, {lua_str(lua)}, {lua_str(run(py))}}},")
        lines.append("  },")
    lines.append("  policy = {  -- {row, device type, input dtype, gpulab code (D, DT), result dtype or 'error'}")
    for row, dev, dt, lua, got in POLICY:
        lines.append(f"    {{{lua_str(row)}, {lua_str(dev)}, {lua_str(dt)}, {lua_str(lua)}, {lua_str(got)}}},")
    lines.append("  },")
    lines.append("}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{len(CPU)} cpu, {len(CUDA)} cuda, {len(SCALER)} scaler, {len(POLICY)} policy cases -> {os.path.normpath(out)}")


write()
