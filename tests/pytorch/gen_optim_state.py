#!/usr/bin/env python3
# Needs PyTorch (CPU is enough). Writes tests/lua/optim_state_expected.lua: an
# optimizer's state_dict() after a few steps, as PyTorch prints it, and the
# errors of load_state_dict. tests/lua/test_optim_state.lua runs the same on
# the CPU and on a virtual CUDA device (Note [Optimizer state_dict]).
#   python3 tests/pytorch/gen_optim_state.py
import io

import torch
from expected_cases import repr_of, write_expected


def params(D):
    w = torch.nn.Parameter(torch.tensor([[1., -2.], [0.5, 3.]], device=D))
    b = torch.nn.Parameter(torch.tensor([0.1, -0.2], device=D))
    return w, b


def train(opt, w, b, steps, D):
    x = torch.tensor([[1., 2.], [-1., 0.5]], device=D)
    for _ in range(steps):
        opt.zero_grad()
        ((x @ w.T + b) ** 2).sum().backward()
        opt.step()


def run_opt(name, opts, steps, D, groups=False):
    w, b = params(D)
    ps = [{"params": [w]}, {"params": [b], "lr": 0.01}] if groups else [w, b]
    opt = getattr(torch.optim, name)(ps, **opts)
    train(opt, w, b, steps, D)
    return opt.state_dict()


def resume(name, opts, D):
    """Two steps, a checkpoint through a file, a new optimizer loads it, two more steps."""
    w, b = params(D)
    opt = getattr(torch.optim, name)([w, b], **opts)
    train(opt, w, b, 2, D)
    f = io.BytesIO()
    torch.save({"optimizer": opt.state_dict()}, f)
    f.seek(0)
    opt2 = getattr(torch.optim, name)([w, b], lr=0.5)
    opt2.load_state_dict(torch.load(f)["optimizer"])
    train(opt2, w, b, 2, D)
    return opt2.state_dict()


def load_into(name, sd, groups):
    w, b = params("cpu")
    ps = [{"params": [w]}, {"params": [b]}] if groups == 2 else [w] if groups == 0 else [w, b]
    getattr(torch.optim, name)(ps).load_state_dict(sd)
    return "loaded"


CASES = []
def case(name, lua, py):
    CASES.append((name, lua, py))

for name, lua_opts, py_opts, steps in [
    ("SGD", "{lr=0.1}", "dict(lr=0.1)", 1),
    ("SGD", "{lr=0.1, momentum=0.9}", "dict(lr=0.1, momentum=0.9)", 2),
    ("SGD", "{lr=0.05, momentum=0.5, nesterov=true, weight_decay=0.1}",
     "dict(lr=0.05, momentum=0.5, nesterov=True, weight_decay=0.1)", 2),
    ("Adam", "{lr=0.01}", "dict(lr=0.01)", 2),
    ("AdamW", "{lr=0.01, amsgrad=true}", "dict(lr=0.01, amsgrad=True)", 2),
    ("RMSprop", "{lr=0.01, momentum=0.9, centered=true}", "dict(lr=0.01, momentum=0.9, centered=True)", 2),
    ("Adagrad", "{lr=0.1}", "dict(lr=0.1)", 0),
    ("Adagrad", "{lr=0.1, lr_decay=0.01}", "dict(lr=0.1, lr_decay=0.01)", 2),
]:
    tag = f"{name.lower()}_{len(CASES)}"
    case(tag, f"run_opt('{name}', {lua_opts}, {steps}, D)", f"run_opt('{name}', {py_opts}, {steps}, D)")
case("sgd_groups", "run_opt('SGD', {lr=0.1, momentum=0.9}, 1, D, true)",
     "run_opt('SGD', dict(lr=0.1, momentum=0.9), 1, D, True)")
case("resume_adam", "resume('Adam', {lr=0.01}, D)", "resume('Adam', dict(lr=0.01), D)")
case("resume_sgd", "resume('SGD', {lr=0.1, momentum=0.9}, D)", "resume('SGD', dict(lr=0.1, momentum=0.9), D)")
case("resume_rmsprop", "resume('RMSprop', {lr=0.01, centered=true}, D)",
     "resume('RMSprop', dict(lr=0.01, centered=True), D)")
SD = "run_opt('Adam', {lr=0.01}, 1, D)"
SDP = "run_opt('Adam', dict(lr=0.01), 1, D)"
case("load_fewer_params", f"load_into('Adam', {SD}, 0)", f"load_into('Adam', {SDP}, 0)")
case("load_more_groups", f"load_into('Adam', {SD}, 2)", f"load_into('Adam', {SDP}, 2)")
case("load_no_groups", "load_into('Adam', {state={}}, 1)", "load_into('Adam', {'state': {}}, 1)")
case("load_ok", f"load_into('Adam', {SD}, 1)", f"load_into('Adam', {SDP}, 1)")

if __name__ == "__main__":
    env = {"torch": torch, "run_opt": run_opt, "resume": resume, "load_into": load_into, "D": "cpu"}
    write_expected("gen_optim_state.py", "optim_state_expected.lua", CASES, lambda py: repr_of(py, env))
