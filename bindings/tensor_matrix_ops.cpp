// Bound matrix products and softmax: like tensor_ops.cpp's, each takes the
// tensor first and serves as both x:name(...) and torch.name(x, ...).
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/ops/ops.h"

namespace gl::lt {

namespace {

int matmul(lua_State* L) {
  Args a(L, 1, "matmul");
  push_tensor(L, gl::matmul(a.tensor(0, "input"), a.tensor(1, "other")));
  return 1;
}
int mm(lua_State* L) {
  Args a(L, 1, "mm");
  push_tensor(L, gl::mm(a.tensor(0, "input"), a.tensor(1, "mat2")));
  return 1;
}
int bmm(lua_State* L) {
  Args a(L, 1, "bmm");
  push_tensor(L, gl::bmm(a.tensor(0, "input"), a.tensor(1, "mat2")));
  return 1;
}
int dot(lua_State* L) {
  Args a(L, 1, "dot");
  push_tensor(L, gl::dot(a.tensor(0, "input"), a.tensor(1, "tensor")));
  return 1;
}
int addmm(lua_State* L) {
  Args a(L, 1, "addmm");
  push_tensor(L, gl::addmm(a.tensor(0, "input"), a.tensor(1, "mat1"), a.tensor(2, "mat2"),
                           a.opt_number(-1, "beta").value_or(1), a.opt_number(-1, "alpha").value_or(1)));
  return 1;
}
int softmax(lua_State* L) {
  Args a(L, 1, "softmax");
  auto dt = a.dtype(2, "dtype");  // dtype= casts the input first, as in PyTorch
  push_tensor(L, gl::softmax(dt ? to_dtype(a.tensor(0, "input"), *dt) : a.tensor(0, "input"), a.integer(1, "dim")));
  return 1;
}
int log_softmax(lua_State* L) {
  Args a(L, 1, "log_softmax");
  auto dt = a.dtype(2, "dtype");
  push_tensor(L, gl::log_softmax(dt ? to_dtype(a.tensor(0, "input"), *dt) : a.tensor(0, "input"), a.integer(1, "dim")));
  return 1;
}

}  // namespace

const Reg kTensorMatrixOps[] = {
    {"matmul", matmul, "matmul(input, other): matrix product with PyTorch's broadcasting rules (1-d, 2-d, batched)."},
    {"mm", mm, "mm(input, mat2): product of two matrices."},
    {"bmm", bmm, "bmm(input, mat2): batched product of [b, n, m] and [b, m, p]."},
    {"dot", dot, "dot(input, tensor): inner product of two 1-d tensors."},
    {"addmm", addmm, "addmm(input, mat1, mat2, {beta=1, alpha=1}): beta * input + alpha * (mat1 @ mat2)."},
    {"softmax", softmax, "softmax(input, dim): exp(x) / sum(exp(x)) along dim."},
    {"log_softmax", log_softmax, "log_softmax(input, dim): log of softmax, computed stably."},
    {nullptr, nullptr, nullptr}};

}  // namespace gl::lt
