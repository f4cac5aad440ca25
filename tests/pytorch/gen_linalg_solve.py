#!/usr/bin/env python3
# Needs PyTorch (CPU is enough). Writes tests/lua/linalg_solve_expected.lua:
# torch.linalg.solve, inv and det (and torch.inverse, torch.det) as PyTorch
# prints them, their gradients, and their errors; tests/lua/test_linalg_solve.lua
# runs each case on the CPU and on a virtual CUDA device.
#   python3 tests/pytorch/gen_linalg_solve.py
import torch
from expected_cases import repr_of, write_expected

A2 = "[[2., 1.], [1., 3.]]"
A3 = "[[4., -2., 1.], [3., 6., -4.], [2., 1., 8.]]"
B3 = "[[1., 0.], [2., -1.], [0.5, 3.]]"


def lua(s):
    return s.replace("[", "{").replace("]", "}")


def grad(D, kind, a, b=None):
    """The gradient of sum(op(A[, B])) with respect to A (and B), on device D."""
    A = torch.tensor(a, device=D, requires_grad=True)
    if kind == "inv":
        torch.linalg.inv(A).sum().backward()
        return A.grad
    if kind == "det":
        torch.linalg.det(A).backward()
        return A.grad
    B = torch.tensor(b, device=D, requires_grad=True)
    torch.linalg.solve(A, B).sum().backward()
    return A.grad, B.grad


CASES = []
def case(name, lua_code, py_code):
    CASES.append((name, lua_code, py_code))

for name, a in [("2x2", A2), ("3x3", A3)]:
    case(f"inv_{name}", f"torch.linalg.inv(torch.tensor({lua(a)}, {{device=D}}))", f"torch.linalg.inv(torch.tensor({a}, device=D))")
    case(f"det_{name}", f"torch.linalg.det(torch.tensor({lua(a)}, {{device=D}}))", f"torch.linalg.det(torch.tensor({a}, device=D))")
    case(f"inv_grad_{name}", f"grad(D, 'inv', {lua(a)})", f"grad(D, 'inv', {a})")
    case(f"det_grad_{name}", f"grad(D, 'det', {lua(a)})", f"grad(D, 'det', {a})")
case("solve_matrix", f"torch.linalg.solve(torch.tensor({lua(A3)}, {{device=D}}), torch.tensor({lua(B3)}, {{device=D}}))",
     f"torch.linalg.solve(torch.tensor({A3}, device=D), torch.tensor({B3}, device=D))")
case("solve_vector", f"torch.linalg.solve(torch.tensor({lua(A2)}, {{device=D}}), torch.tensor({{1., 2.}}, {{device=D}}))",
     f"torch.linalg.solve(torch.tensor({A2}, device=D), torch.tensor([1., 2.], device=D))")
case("solve_grad", f"grad(D, 'solve', {lua(A3)}, {lua(B3)})", f"grad(D, 'solve', {A3}, {B3})")
case("solve_grad_vector", f"grad(D, 'solve', {lua(A2)}, {{1., 2.}})", f"grad(D, 'solve', {A2}, [1., 2.])")
case("solve_batched_vectors", "torch.linalg.solve(torch.eye(2, {device=D}):expand(3, 2, 2) * 2, torch.arange(6., {device=D}):view(3, 2))",
     "torch.linalg.solve(torch.eye(2, device=D).expand(3, 2, 2) * 2, torch.arange(6., device=D).view(3, 2))")
case("solve_broadcast", f"torch.linalg.solve(torch.tensor({lua(A2)}, {{device=D}}), torch.ones(2, 2, 3, {{device=D}}))",
     f"torch.linalg.solve(torch.tensor({A2}, device=D), torch.ones(2, 2, 3, device=D))")
case("inv_batched_float64", f"torch.linalg.inv(torch.tensor({{{lua(A2)}, {{{{1., 2.}}, {{3., 4.}}}}}}, {{dtype=torch.float64, device=D}}))",
     f"torch.linalg.inv(torch.tensor([{A2}, [[1., 2.], [3., 4.]]], dtype=torch.float64, device=D))")
case("det_batched", f"torch.det(torch.tensor({{{lua(A2)}, {{{{1., 2.}}, {{2., 4.}}}}}}, {{device=D}}))",
     f"torch.det(torch.tensor([{A2}, [[1., 2.], [2., 4.]]], device=D))")
case("inverse_method", f"torch.tensor({lua(A2)}, {{device=D}}):inverse()", f"torch.tensor({A2}, device=D).inverse()")
case("det_method", f"torch.tensor({lua(A3)}, {{device=D}}):det()", f"torch.tensor({A3}, device=D).det()")
case("det_empty", "torch.linalg.det(torch.zeros(0, 0, {device=D}))", "torch.linalg.det(torch.zeros(0, 0, device=D))")
case("inv_empty", "torch.linalg.inv(torch.zeros(0, 0, {device=D}))", "torch.linalg.inv(torch.zeros(0, 0, device=D))")
for name, lua_code, py_code in [
    ("inv_not_square", "torch.linalg.inv(torch.ones(2, 3, {device=D}))", "torch.linalg.inv(torch.ones(2, 3, device=D))"),
    ("inv_1d", "torch.linalg.inv(torch.ones(3, {device=D}))", "torch.linalg.inv(torch.ones(3, device=D))"),
    ("inv_int", "torch.linalg.inv(torch.ones(2, 2, {dtype=torch.int64, device=D}))",
     "torch.linalg.inv(torch.ones(2, 2, dtype=torch.int64, device=D))"),
    ("det_not_square", "torch.linalg.det(torch.ones(2, 3, {device=D}))", "torch.linalg.det(torch.ones(2, 3, device=D))"),
    ("solve_shapes", "torch.linalg.solve(torch.eye(2, {device=D}), torch.ones(3, {device=D}))",
     "torch.linalg.solve(torch.eye(2, device=D), torch.ones(3, device=D))"),
    ("solve_dtypes", "torch.linalg.solve(torch.eye(2, {device=D}), torch.ones(2, {dtype=torch.float64, device=D}))",
     "torch.linalg.solve(torch.eye(2, device=D), torch.ones(2, dtype=torch.float64, device=D))"),
    ("solve_scalar_b", "torch.linalg.solve(torch.eye(2, {device=D}), torch.tensor(1., {device=D}))",
     "torch.linalg.solve(torch.eye(2, device=D), torch.tensor(1., device=D))"),
]:
    case(name, lua_code, py_code)
# Singular matrices: PyTorch raises torch._C._LinAlgError, which Python prints by its full name.
SINGULAR = [
    ("inv_singular", "torch.linalg.inv(torch.tensor({{1., 2.}, {2., 4.}}, {device=D}))",
     "torch.linalg.inv(torch.tensor([[1., 2.], [2., 4.]], device=D))"),
    ("inv_zero", "torch.linalg.inv(torch.zeros(2, 2, {device=D}))", "torch.linalg.inv(torch.zeros(2, 2, device=D))"),
    ("solve_singular", "torch.linalg.solve(torch.zeros(2, 2, {device=D}), torch.ones(2, {device=D}))",
     "torch.linalg.solve(torch.zeros(2, 2, device=D), torch.ones(2, device=D))"),
    ("inv_singular_in_batch", "torch.linalg.inv(torch.stack({torch.eye(2, {device=D}), torch.zeros(2, 2, {device=D})}))",
     "torch.linalg.inv(torch.stack([torch.eye(2, device=D), torch.zeros(2, 2, device=D)]))"),
    ("solve_singular_in_batch", "torch.linalg.solve(torch.stack({torch.eye(2, {device=D}), torch.zeros(2, 2, {device=D})}), "
     "torch.ones(2, 2, {device=D}))",
     "torch.linalg.solve(torch.stack([torch.eye(2, device=D), torch.zeros(2, 2, device=D)]), torch.ones(2, 2, device=D))"),
]
CASES += SINGULAR


def run(py, env):
    text = repr_of(py, env)
    return "torch._C." + text if text.startswith("_LinAlgError: ") else text


if __name__ == "__main__":
    env = {"torch": torch, "grad": grad, "D": "cpu"}
    write_expected("gen_linalg_solve.py", "linalg_solve_expected.lua", CASES, lambda py: run(py, env))
