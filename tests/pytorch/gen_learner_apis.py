#!/usr/bin/env python3
# Needs PyTorch (CPU is enough) and IPython. Writes
# tests/lua/learner_apis_expected.lua: for each case, the gpulab (Lua) code and
# what PyTorch prints for the same code (its repr, or "Kind: message" for an
# error), for the APIs added for d2l / PyTorch learners, a section each.
# tests/lua/test_learner_apis.lua runs each case on the CPU and on a virtual
# CUDA device and compares the echo.
#   python3 tests/pytorch/gen_learner_apis.py
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from expected_cases import repr_of, write_expected

nan, inf = math.nan, math.inf

# (name, Lua code with D for the device string, Python code with D likewise)
CASES = []


def case(name, lua, py=None):
    CASES.append((name, lua, py if py is not None else lua))


def lua_fn(body):
    """A Lua expression running `body` (statements ending in a return)."""
    return f"(function() {body} end)()"


# ---- nn.ModuleList ----
case("ml_repeat", "nn.ModuleList({nn.Linear(2, 2), nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU(), nn.ReLU()})",
     "nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU(), nn.ReLU()])")
case("ml_distinct", "nn.ModuleList({nn.Linear(2, 2), nn.Linear(2, 3), nn.Linear(2, 2)})",
     "nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 3), nn.Linear(2, 2)])")
case("ml_empty", "nn.ModuleList()", "nn.ModuleList()")
case("ml_empty_table", "nn.ModuleList({})", "nn.ModuleList([])")
case("ml_nested", "nn.ModuleList({nn.ModuleList({nn.Linear(1, 1), nn.Linear(1, 1)}), nn.ModuleList({nn.Linear(1, 1), nn.Linear(1, 1)})})",
     "nn.ModuleList([nn.ModuleList([nn.Linear(1, 1), nn.Linear(1, 1)]), nn.ModuleList([nn.Linear(1, 1), nn.Linear(1, 1)])])")
case("ml_in_sequential", "nn.Sequential(nn.Linear(1, 1), nn.ModuleList({nn.ReLU(), nn.ReLU(), nn.Tanh()}))",
     "nn.Sequential(nn.Linear(1, 1), nn.ModuleList([nn.ReLU(), nn.ReLU(), nn.Tanh()]))")
ML3 = "nn.ModuleList({nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)})"
ML3P = "nn.ModuleList([nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)])"
case("ml_index0", f"{ML3}[0]", f"{ML3P}[0]")
case("ml_index_neg", f"{ML3}[-1]", f"{ML3P}[-1]")
case("ml_index_out", f"{ML3}[3]", f"{ML3P}[3]")
case("ml_index_neg_out", f"{ML3}[-4]", f"{ML3P}[-4]")
case("ml_slice", f"{ML3}['1:']", f"{ML3P}[1:]")
case("ml_slice_step", f"{ML3}['::2']", f"{ML3P}[::2]")
case("ml_len", f"#{ML3}", f"len({ML3P})")
case("ml_state_dict", f"{ML3}:state_dict():keys()", f"{ML3P}.state_dict().keys()")
case("ml_named_parameters",
     lua_fn(f"local n = {{}}; for name in {ML3}:named_parameters() do n[#n + 1] = name end; return n"),
     f"[n for n, _ in {ML3P}.named_parameters()]")
case("ml_parameters_count", f"#{ML3}:parameters()", f"len(list({ML3P}.parameters()))")
case("ml_iterate", lua_fn(f"local n = {{}}; for m in {ML3} do n[#n + 1] = m:_get_name() end; return n"),
     f"[type(m).__name__ for m in {ML3P}]")
case("ml_forward_loop",
     lua_fn("torch.manual_seed(0); local ml = nn.ModuleList({nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)}):to(D); "
            "local x = torch.tensor({{1., -2.}, {0.5, 3.}}, {device=D}); for m in ml do x = m(x) end; return x"),
     "(lambda: (torch.manual_seed(0), (lambda ml: (lambda x: [x := m(x) for m in ml][-1])("
     "torch.tensor([[1., -2.], [0.5, 3.]], device=D)))(nn.ModuleList([nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)]).to(D)))[1])()")
case("ml_call", f"{ML3}(torch.ones(2, {{device=D}}))", f"{ML3P}(torch.ones(2, device=D))")
case("ml_not_iterable", "nn.ModuleList(nn.Linear(2, 2))", "nn.ModuleList(nn.Linear(2, 2))")
case("ml_int", "nn.ModuleList(3)", "nn.ModuleList(3)")
case("ml_append_int", "nn.ModuleList():append(3)", "nn.ModuleList().append(3)")
case("ml_extend_module", "nn.ModuleList():extend(nn.ReLU())", "nn.ModuleList().extend(nn.ReLU())")
case("ml_append", "nn.ModuleList({nn.ReLU()}):append(nn.Tanh()):append(nn.Tanh())",
     "nn.ModuleList([nn.ReLU()]).append(nn.Tanh()).append(nn.Tanh())")
case("ml_extend", f"nn.ModuleList({{nn.ReLU()}}):extend({ML3})", f"nn.ModuleList([nn.ReLU()]).extend({ML3P})")
case("ml_extend_table", "nn.ModuleList({nn.ReLU()}):extend({nn.Tanh(), nn.Sigmoid()})",
     "nn.ModuleList([nn.ReLU()]).extend([nn.Tanh(), nn.Sigmoid()])")
case("ml_insert", lua_fn(f"local ml = {ML3}; ml:insert(1, nn.Tanh()); return ml"),
     f"(lambda ml: (ml.insert(1, nn.Tanh()), ml)[1])({ML3P})")
case("ml_insert_end", lua_fn(f"local ml = {ML3}; ml:insert(3, nn.Tanh()); return ml"),
     f"(lambda ml: (ml.insert(3, nn.Tanh()), ml)[1])({ML3P})")
case("ml_setitem", lua_fn(f"local ml = {ML3}; ml[-1] = nn.Sigmoid(); return ml"),
     f"(lambda ml: (ml.__setitem__(-1, nn.Sigmoid()), ml)[1])({ML3P})")
case("ml_setitem_out", lua_fn(f"local ml = {ML3}; ml[3] = nn.Sigmoid(); return ml"),
     f"(lambda ml: (ml.__setitem__(3, nn.Sigmoid()), ml)[1])({ML3P})")
case("ml_setitem_int", lua_fn(f"local ml = {ML3}; ml[0] = 3; return ml"),
     f"(lambda ml: (ml.__setitem__(0, 3), ml)[1])({ML3P})")
case("ml_del", lua_fn(f"local ml = {ML3}; ml[0] = nil; return ml, ml:state_dict():keys()"),
     f"(lambda ml: (ml.__delitem__(0), (ml, ml.state_dict().keys()))[1])({ML3P})")
case("ml_pop", lua_fn(f"local ml = {ML3}; return ml:pop(1), #ml"),
     f"(lambda ml: (ml.pop(1), len(ml)))({ML3P})")


def run_py(code):
    return repr_of(code, {"torch": torch, "nn": nn, "F": F, "nan": nan, "inf": inf, "D": "cpu"})


def main():
    write_expected("gen_learner_apis.py", "learner_apis_expected.lua", CASES, run_py)


if __name__ == "__main__":
    main()
