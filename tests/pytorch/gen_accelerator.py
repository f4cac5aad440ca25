#!/usr/bin/env python3
# Needs PyTorch (pip install torch), run on a machine WITHOUT a GPU. Writes
# tests/cli/fixtures/accelerator/no_gpu.txt: what PyTorch's torch.accelerator
# answers there, one line per case, in the form tests/cli/basics.sh prints
# gpulab's answers to the same Lua cases (accelerator/no_gpu.lua) run
# without virtual devices.
#   python3 tests/pytorch/gen_accelerator.py
import pathlib

import torch

acc = torch.accelerator
assert not torch.cuda.is_available(), "run this where PyTorch sees no GPU"


def show(v):
    if v is None:
        return "None"
    if isinstance(v, bool):
        return "True" if v else "False"
    return str(v)


def case(fn):
    try:
        return show(fn())
    except Exception as e:  # the error's type and first line, as gpulab's test prints them
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"


CASES = [
    lambda: acc.is_available(),
    lambda: acc.current_accelerator(),
    lambda: acc.current_accelerator().type,
    lambda: acc.current_accelerator(check_available=True),
    lambda: acc.device_count(),
    lambda: acc.memory_allocated(),
    lambda: acc.max_memory_reserved(),
    lambda: len(acc.memory_stats()),
    lambda: acc.empty_cache(),
    lambda: acc.current_device_index(),
    lambda: acc.set_device_index("cpu"),
    lambda: acc.synchronize("cpu"),
    lambda: acc.device_count(1),
    lambda: "cuda" if acc.is_available() else "cpu",
    lambda: torch.cuda.is_bf16_supported(),
]
out = pathlib.Path(__file__).resolve().parent.parent / "cli" / "fixtures" / "accelerator" / "no_gpu.txt"
out.write_text("".join(case(c) + "\n" for c in CASES))
print(f"wrote {out}")
