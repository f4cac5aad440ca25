// Bound matrix products and softmax: like tensor_ops.cpp's, each takes the
// tensor first and serves as both x:name(...) and torch.name(x, ...). The
// products of two tensors are rows (Note [Binding rows]).
#include "bindings/args.h"
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/ops/ops.h"

namespace gl::lt {

namespace {

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
    GL_TENSOR_OP2(matmul, other,
                  "matmul(input, other): matrix product with PyTorch's broadcasting rules (1-d, 2-d, batched)."),
    GL_TENSOR_OP2(mm, mat2, "mm(input, mat2): product of two matrices."),
    GL_TENSOR_OP2(bmm, mat2, "bmm(input, mat2): batched product of [b, n, m] and [b, m, p]."),
    GL_TENSOR_OP2(dot, tensor, "dot(input, tensor): inner product of two 1-d tensors."),
    {"addmm", addmm, "addmm(input, mat1, mat2, {beta=1, alpha=1}): beta * input + alpha * (mat1 @ mat2)."},
    {"softmax", softmax, "softmax(input, dim): exp(x) / sum(exp(x)) along dim."},
    {"log_softmax", log_softmax, "log_softmax(input, dim): log of softmax, computed stably."},
    {nullptr, nullptr, nullptr}};

}  // namespace gl::lt
