#!/usr/bin/env python3
# Needs PyTorch and IPython (pip install torch ipython). Writes
# tests/lua/echo_expected.lua: for each case, gpulab (Lua) code and what
# IPython displays for the same value in PyTorch (IPython.lib.pretty, what a
# notebook cell or the IPython shell shows): tuples from split and chunk, long
# lists one item a line, state_dicts, optimizer states, nested containers.
# tests/lua/test_echo.lua compares gpulab's echo with it, on the CPU and on a
# virtual CUDA device (Note [IPython's pretty printer], bindings/pretty.h).
#   python3 tests/pytorch/gen_echo.py
import collections  # noqa: F401 - used by the cases' code

import torch
from IPython.lib.pretty import pretty
from expected_cases import write_expected

# (name, Lua expression with D for the device string, Python expression likewise);
# the Lua code may use lin(D), the Python code lin(D): the same small nn.Linear.
CASES = []


def case(name, lua, py):
    CASES.append((name, lua, py))


def lua_fn(body):
    return f"(function() {body} end)()"


T6, T6P = "torch.arange(6, {device=D})", "torch.arange(6, device=D)"
case("split", f"{T6}:split(2)", f"{T6P}.split(2)")
case("split_one", "torch.arange(3, {device=D}):split(5)", "torch.arange(3, device=D).split(5)")
case("chunk_wide", "torch.arange(60, {device=D}):reshape(2, 30):chunk(2)",
     "torch.arange(60, device=D).reshape(2, 30).chunk(2)")
case("unbind", f"{T6}:reshape(2, 3):unbind(1)", f"{T6P}.reshape(2, 3).unbind(1)")
case("torch_split_sizes", f"torch.split({T6}, {{1, 5}})", f"torch.split({T6P}, [1, 5])")
case("stride", "torch.zeros(2, 3, {device=D}):stride()", "torch.zeros(2, 3, device=D).stride()")
case("stride_1d", "torch.zeros(4, {device=D}):stride()", "torch.zeros(4, device=D).stride()")
case("nonzero_tuple", "torch.tensor({{0, 1}, {1, 1}}, {device=D}):nonzero({as_tuple=true})",
     "torch.tensor([[0, 1], [1, 1]], device=D).nonzero(as_tuple=True)")
case("where_one", "torch.where(torch.tensor({0, 3, 0, 5}, {device=D}):gt(0))",
     "torch.where(torch.tensor([0, 3, 0, 5], device=D).gt(0))")
case("two_values", "torch.arange(3, {device=D}), torch.ones(2, 2, {device=D})",
     "(torch.arange(3, device=D), torch.ones(2, 2, device=D))")
case("two_lists", "{1, 2}, {3, 4}", "([1, 2], [3, 4])")
case("ints_short", "{1, 2, 3}", "[1, 2, 3]")
case("ints_long", lua_fn("local t = {} for i = 1, 30 do t[i] = i * 1000 end return t"),
     "[i * 1000 for i in range(1, 31)]")
case("ints_capped", lua_fn("local t = {} for i = 1, 1001 do t[i] = i end return t"), "list(range(1, 1002))")
case("floats_long", lua_fn("local t = {} for i = 1, 30 do t[i] = 0.1 end return t"), "[0.1] * 30")
case("strings_long", lua_fn("local t = {} for i = 1, 12 do t[i] = 'item ' .. i end return t"),
     "['item ' + str(i) for i in range(1, 13)]")
case("nested_rows",
     lua_fn("local r = {} for i = 1, 4 do local row = {} for j = 1, 12 do row[j] = i * j end r[i] = row end return r"),
     "[[i * j for j in range(1, 13)] for i in range(1, 5)]")
case("nested_long_rows",
     lua_fn("local r = {} for i = 1, 2 do local row = {} for j = 1, 30 do row[j] = i * j end r[i] = row end return r"),
     "[[i * j for j in range(1, 31)] for i in range(1, 3)]")
case("tensors_short", "{torch.arange(3, {device=D}), torch.arange(3, {device=D})}",
     "[torch.arange(3, device=D), torch.arange(3, device=D)]")
case("tensors_long", lua_fn("local t = {} for i = 1, 6 do t[i] = torch.arange(10, {device=D}) end return t"),
     "[torch.arange(10, device=D) for i in range(6)]")
case("matrices", "{torch.arange(4, {device=D}):reshape(2, 2), torch.ones(2, 2, {device=D})}",
     "[torch.arange(4, device=D).reshape(2, 2), torch.ones(2, 2, device=D)]")
case("sizes", "{torch.zeros(2, 3):size(), torch.zeros(4):size()}", "[torch.zeros(2, 3).size(), torch.zeros(4).size()]")
case("dict_long", "{alpha = 'a long string value number one', beta = 'a long string value number two', gamma = 3}",
     "{'alpha': 'a long string value number one', 'beta': 'a long string value number two', 'gamma': 3}")
case("dict_tensors", "{x = torch.arange(3, {device=D}), y = torch.ones(2, 2, {device=D})}",
     "{'x': torch.arange(3, device=D), 'y': torch.ones(2, 2, device=D)}")
case("list_of_dict", "{{w = torch.arange(12, {device=D}):reshape(3, 4)}}",
     "[{'w': torch.arange(12, device=D).reshape(3, 4)}]")
case("state_dict", "lin(D):state_dict()", "lin(D).state_dict()")
case("state_dict_seq", "nn.Sequential(lin(D), nn.ReLU(), lin(D)):state_dict()",
     "torch.nn.Sequential(lin(D), torch.nn.ReLU(), lin(D)).state_dict()")
case("state_dict_empty", "nn.Sequential():state_dict()", "torch.nn.Sequential().state_dict()")
case("state_dict_keys", "lin(D):state_dict():keys()", "lin(D).state_dict().keys()")
case("state_dict_items", "lin(D):state_dict():items()", "lin(D).state_dict().items()")
case("named_parameters", "lin(D):named_parameters()", "list(lin(D).named_parameters())")
case("parameters", "lin(D):parameters()", "list(lin(D).parameters())")
case("sgd_state", "torch.optim.SGD(lin(D):parameters(), {lr=0.1, momentum=0.9}):state_dict()",
     "torch.optim.SGD(lin(D).parameters(), lr=0.1, momentum=0.9).state_dict()")
case("adam_state", "torch.optim.Adam(lin(D):parameters()):state_dict()",
     "torch.optim.Adam(lin(D).parameters()).state_dict()")
case("multistep_state",
     "torch.optim.lr_scheduler.MultiStepLR(torch.optim.SGD(lin(D):parameters(), {lr=0.1}), {2, 2, 5}):state_dict()",
     "torch.optim.lr_scheduler.MultiStepLR(torch.optim.SGD(lin(D).parameters(), lr=0.1), [2, 2, 5]).state_dict()")


def lin(D):
    net = torch.nn.Linear(3, 2).to(D)
    net.weight.data.copy_(torch.arange(6.).reshape(2, 3))
    net.bias.data.copy_(torch.tensor([0.5, -1.]))
    return net


def display(py):
    return pretty(eval(py, {"torch": torch, "collections": collections, "lin": lin, "D": "cpu"}))


if __name__ == "__main__":
    write_expected("gen_echo.py", "echo_expected.lua", CASES, display)
