// Selections with numbers as operands: masked_fill, where with numbers,
// clamp_ (and the shared rule for a number's dtype).
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"

namespace gl {

DType scalar_default_dtype(Scalar s) {
  return s.kind == Scalar::Float ? DType::Float32 : s.kind == Scalar::Bool ? DType::Bool : DType::Int64;
}

Tensor masked_fill(const Tensor& t, const Tensor& mask, Other value) {
  Tensor v = value.t ? *value.t : scalar_tensor(value.s, t.dtype(), Device());
  return where(mask, to_dtype(v, t.dtype()), t);
}

Tensor where(const Tensor& cond, Other x, Other y) {
  const Tensor& like = x.t ? *x.t : y.t ? *y.t : cond;
  auto operand = [&](Other o) -> Tensor {
    if (o.t) return *o.t;
    DType d = like.dtype();
    if (o.s.kind == Scalar::Float && !is_floating(d)) d = DType::Float32;
    if (o.s.kind == Scalar::Int && d == DType::Bool) d = DType::Int64;
    return scalar_tensor(o.s, d, Device(Device::CPU));  // 0-d CPU tensors join any device
  };
  return where(cond, operand(x), operand(y));
}

void clamp_(Tensor& t, std::optional<double> lo, std::optional<double> hi) {
  if (GradMode::enabled() && t.requires_grad()) {
    inplace_with_grad(t, [&](const Tensor& old) { return clamp(old, lo, hi); });
    return;
  }
  Tensor r;
  {
    NoGradGuard ng;
    r = clamp(t, lo, hi);
  }
  copy_(t, r);
}

}  // namespace gl
