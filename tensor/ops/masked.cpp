// Selections with numbers as operands: masked_fill, where with numbers,
// clamp_ and clamp with tensor bounds (and the shared rule for a number's dtype).
#include "tensor/autograd/saved.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"

namespace gl {

DType scalar_default_dtype(Scalar s) {
  return s.kind == Scalar::Float ? default_dtype() : s.kind == Scalar::Bool ? DType::Bool : DType::Int64;
}

// PyTorch's derivatives: MaskedFillBackward0 (a number as the value) gives the
// input the gradient with zeros where mask; MaskedFillBackward1 (a 0-d tensor)
// also gives the value the sum of the gradient where mask.
Tensor masked_fill(const Tensor& t, const Tensor& mask, Other value) {
  GL_CHECK(!value.t || value.t->dim() == 0,
           "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
           value.t ? value.t->dim() : 0, " dimension(s).");
  Tensor v = value.t ? *value.t : scalar_tensor(value.s, t.dtype(), Device());
  Tensor out;
  {
    NoGradGuard ng;
    out = where(mask, to_dtype(v, t.dtype()), t);
  }
  if (!any_requires_grad({&t, &v})) return out;
  std::vector<Tensor> inputs{t};
  if (value.t) inputs.push_back(v);
  record(out, value.t ? "MaskedFillBackward1" : "MaskedFillBackward0", inputs,
         MaskedFillBackward{mask, t.sizes(), t.dtype(), value.t != nullptr, v.dtype(), v.device()});
  return out;
}

Tensor where(const Tensor& cond, Other x, Other y) {
  const Tensor& like = x.t ? *x.t : y.t ? *y.t : cond;
  auto operand = [&](Other o) -> Tensor {
    if (o.t) return *o.t;
    DType d = like.dtype();
    if (o.s.kind == Scalar::Float && !is_floating(d)) d = default_dtype();
    if (o.s.kind == Scalar::Int && d == DType::Bool) d = DType::Int64;
    return scalar_tensor(o.s, d, Device(Device::CPU));  // 0-d CPU tensors join any device
  };
  return where(cond, operand(x), operand(y));
}

void clamp_(Tensor& t, std::optional<double> lo, std::optional<double> hi) {
  Mutation written(t);  // Note [Version counter]
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

// clamp(input, min, max) with a tensor among the bounds (PyTorch's
// clamp.Tensor): maximum, then minimum, in the promoted dtype and the
// broadcast shape, so a tie shares its gradient as theirs do; the node is
// named ClampBackward0.
Tensor clamp_tensor(const Tensor& a, std::optional<Other> lo, std::optional<Other> hi) {
  GL_CHECK(lo || hi, "torch.clamp: At least one of 'min' or 'max' must not be None");
  auto bound = [](const Tensor& r, BinaryOp op, const Other& b) {
    return b.t ? binary(op, r, *b.t) : binary(op, r, b.s);
  };
  Tensor r = a;
  if (lo) r = bound(r, BinaryOp::Maximum, *lo);
  if (hi) r = bound(r, BinaryOp::Minimum, *hi);
  rename_grad_fn(r, "ClampBackward0");
  return r;
}

void clamp_tensor_(Tensor& t, std::optional<Other> lo, std::optional<Other> hi) {
  Mutation written(t);  // Note [Version counter]
  if (GradMode::enabled() &&
      (t.requires_grad() || (lo && lo->t && lo->t->requires_grad()) || (hi && hi->t && hi->t->requires_grad()))) {
    inplace_with_grad(t, [&](const Tensor& old) { return clamp_tensor(old, lo, hi); });
    return;
  }
  Tensor r;
  {
    NoGradGuard ng;
    r = clamp_tensor(t, lo, hi);
  }
  GL_CHECK(r.sizes() == t.sizes(), "output with shape ", shape_str(t.sizes()), " doesn't match the broadcast shape ",
           shape_str(r.sizes()));
  copy_(t, r);
}

}  // namespace gl
