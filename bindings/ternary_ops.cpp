// torch.addcmul, addcdiv and lerp, and their methods and in-place forms: the
// arguments read, one op called (tensor/ops/ternary_ops.cpp).
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/ops/ops.h"

namespace gl::lt {

namespace {

// addcmul(input, tensor1, tensor2, *, value=1), addcdiv likewise.
template <bool Div, bool Inplace> int addc(lua_State* L) {
  static constexpr const char* kName = Div ? (Inplace ? "addcdiv_" : "addcdiv") : (Inplace ? "addcmul_" : "addcmul");
  Args a(L, 1, kName);
  Tensor& self = a.tensor(0, Inplace ? "self" : "input");
  const Tensor& t1 = a.tensor(1, "tensor1");
  const Tensor& t2 = a.tensor(2, "tensor2");
  const Scalar value = a.has(3, "value") ? a.scalar(3, "value") : Scalar::from_int(1);
  if constexpr (Inplace) {
    Div ? addcdiv_(self, t1, t2, value) : addcmul_(self, t1, t2, value);
    lua_settop(L, 1);
  } else {
    push_tensor(L, Div ? gl::addcdiv(self, t1, t2, value) : gl::addcmul(self, t1, t2, value));
  }
  return 1;
}

// lerp(input, end, weight): weight a number or a tensor.
template <bool Inplace> int lerp(lua_State* L) {
  Args a(L, 1, Inplace ? "lerp_" : "lerp");
  Tensor& self = a.tensor(0, Inplace ? "self" : "input");
  const Tensor& end = a.tensor(1, "end");
  const Tensor* w = to_tensor(L, a.at(2, "weight"));
  const Scalar ws = w ? Scalar::from_int(0) : a.scalar(2, "weight");
  if constexpr (Inplace) {
    w ? gl::lerp_(self, end, *w) : gl::lerp_(self, end, ws);
    lua_settop(L, 1);
  } else {
    push_tensor(L, w ? gl::lerp(self, end, *w) : gl::lerp(self, end, ws));
  }
  return 1;
}

}  // namespace

const Reg kTernaryOps[] = {
    {"addcmul", addc<false, false>,
     "addcmul(input, tensor1, tensor2, {value=1}): input + value * tensor1 * tensor2, one rounding as PyTorch's."},
    {"addcdiv", addc<true, false>, "addcdiv(input, tensor1, tensor2, {value=1}): input + value * tensor1 / tensor2."},
    {"lerp", lerp<false>, "lerp(input, end, weight): input + weight * (end - input); weight a number or a tensor."},
    {nullptr, nullptr, nullptr}};

// The in-place forms: methods only, as in PyTorch.
const Reg kTernaryInplace[] = {
    {"addcmul_", addc<false, true>, "x:addcmul_(tensor1, tensor2, {value=1}): in place; returns x."},
    {"addcdiv_", addc<true, true>, "x:addcdiv_(tensor1, tensor2, {value=1}): in place; returns x."},
    {"lerp_", lerp<true>, "x:lerp_(end, weight): in place; returns x."},
    {nullptr, nullptr, nullptr}};

}  // namespace gl::lt
