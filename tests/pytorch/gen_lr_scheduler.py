#!/usr/bin/env python3
# Needs PyTorch (CPU is enough). Writes tests/lua/lr_scheduler_expected.lua: a
# learning-rate scheduler's state_dict() after some steps, after a resume
# through a checkpoint and after a resume with last_epoch=, as PyTorch prints
# it, and the errors of resuming and loading. tests/lua/test_lr_scheduler.lua
# runs the same on the CPU and on a virtual CUDA device (Note [Scheduler state_dict]).
#   python3 tests/pytorch/gen_lr_scheduler.py
import io

import torch
from expected_cases import repr_of, write_expected

S = torch.optim.lr_scheduler


def fresh(D):
    """SGD over two parameter groups with different learning rates."""
    w = torch.nn.Parameter(torch.ones(2, device=D))
    b = torch.nn.Parameter(torch.ones(1, device=D))
    return torch.optim.SGD([{"params": [w]}, {"params": [b], "lr": 0.5}], lr=0.1)


def run_sched(mk, steps, D):
    opt = fresh(D)
    s = mk(opt)
    for _ in range(steps):
        opt.step()
        s.step()
    return s.state_dict()


def resume(mk, D):
    """Three steps, optimizer and scheduler through a file, new ones load them, three more."""
    opt = fresh(D)
    s = mk(opt)
    for _ in range(3):
        opt.step()
        s.step()
    f = io.BytesIO()
    torch.save({"optimizer": opt.state_dict(), "scheduler": s.state_dict()}, f)
    f.seek(0)
    ck = torch.load(f, weights_only=False)  # the Counter of MultiStepLR is not a weights-only type
    opt2 = fresh(D)
    s2 = mk(opt2)
    opt2.load_state_dict(ck["optimizer"])
    s2.load_state_dict(ck["scheduler"])
    for _ in range(3):
        opt2.step()
        s2.step()
    return s2.state_dict()


def resume_at(mk, D):
    """Two steps; a new optimizer loads the first's state, a scheduler made with last_epoch=2 goes on."""
    opt = fresh(D)
    s = mk(opt, -1)
    for _ in range(2):
        opt.step()
        s.step()
    opt2 = fresh(D)
    opt2.load_state_dict(opt.state_dict())
    s2 = mk(opt2, 2)
    for _ in range(2):
        opt2.step()
        s2.step()
    return s2.state_dict()


def load(sd):
    s = S.StepLR(fresh("cpu"), 2)
    s.load_state_dict(sd)
    return s.state_dict()


# name: (gpulab's arguments after the optimizer, PyTorch's)
SCHEDULERS = {
    "StepLR": ("2, {gamma=0.5%s}", "2, gamma=0.5%s"),
    "MultiStepLR": ("{1, 3, 3}, {gamma=0.5%s}", "[1, 3, 3], gamma=0.5%s"),
    "ExponentialLR": ("0.9, {%s}", "0.9%s"),
    "LambdaLR": ("function(e) return 0.9 ^ e end, {%s}", "lambda e: 0.9 ** e%s"),
    "CosineAnnealingLR": ("4, {eta_min=0.01%s}", "4, eta_min=0.01%s"),
}

CASES = []
for name, (lua_args, py_args) in SCHEDULERS.items():
    lua_mk = f"function(o) return S.{name}(o, {lua_args % ''}) end"
    py_mk = f"lambda o: S.{name}(o, {py_args % ''})"
    for steps in (0, 5):
        CASES.append((f"{name}_{steps}", f"run_sched({lua_mk}, {steps}, D)", f"run_sched({py_mk}, {steps}, D)"))
    CASES.append((f"{name}_resume", f"resume({lua_mk}, D)", f"resume({py_mk}, D)"))
    lua_sep = "" if lua_args.find("{%s}") >= 0 else ", "
    lua_at = f"function(o, e) return S.{name}(o, {lua_args % (lua_sep + 'last_epoch=e')}) end"
    py_at = f"lambda o, e: S.{name}(o, {py_args % ', last_epoch=e'})"
    CASES.append((f"{name}_resume_at", f"resume_at({lua_at}, D)", f"resume_at({py_at}, D)"))
CASES += [
    ("resume_without_initial_lr", "S.StepLR(fresh(D), 2, {last_epoch=3})", "S.StepLR(fresh(D), 2, last_epoch=3)"),
    ("load_unknown_key", "load({last_epoch=7, junk=3})", "load({'last_epoch': 7, 'junk': 3})"),
    ("load_not_a_dict", "load(5)", "load(5)"),
]

if __name__ == "__main__":
    env = {"torch": torch, "S": S, "run_sched": run_sched, "resume": resume, "resume_at": resume_at, "load": load,
           "fresh": fresh, "D": "cpu"}
    write_expected("gen_lr_scheduler.py", "lr_scheduler_expected.lua", CASES, lambda py: repr_of(py, env))
