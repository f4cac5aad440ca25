// Selections and bounds: where, masked_fill, clamp and clamp_, with tensors
// or numbers as operands (and the shared rule for a number's dtype).
#include <cmath>
#include "tensor/autograd/derivatives.h"
#include "tensor/autograd/saved.h"
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"
#include "tensor/runtime/trace.h"

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

Tensor where(const Tensor& cond, const Tensor& a0, const Tensor& b0) {
  GL_CHECK(cond.dtype() == DType::Bool, "where expected condition to be a boolean tensor, but got a tensor with dtype ",
           dtype_legacy_name(cond.dtype()));
  const Shape shape = broadcast_shapes(broadcast_shapes(cond.sizes(), a0.sizes()), b0.sizes());
  Device dev = common_device({&cond, &a0, &b0});  // Note [Shapes before devices]
  ResultType rt;
  rt.add(a0);
  rt.add(b0);
  DType dt = rt.get();
  Tensor c = cond.device() == dev ? cond : to(cond, dev, std::nullopt);
  Tensor a = to_dtype(a0.device() == dev ? a0 : to(a0, dev, std::nullopt), dt);
  Tensor b = to_dtype(b0.device() == dev ? b0 : to(b0, dev, std::nullopt), dt);
  Tensor out = empty_on(shape, dt, dev);
  const DeviceSlot& sl = slot_for(dev);
  trace::op("where", dev);
  sl.kernels->where(sl.exec, make_loop(shape, {&out, &c, &a, &b}));
  if (any_requires_grad({&a0, &b0})) { record(out, {a0, b0}, WhereBackward0{c, a0, b0}); }
  return out;
}

Tensor clamp(const Tensor& a, std::optional<double> lo, std::optional<double> hi) {
  GL_CHECK(lo || hi, "torch.clamp: At least one of 'min' or 'max' must not be None");
  auto sc = [&](double v) {
    const bool integral = v == std::floor(v) && std::fabs(v) < 9.2e18;  // int64_t(v) defined
    return is_floating(a.dtype()) || !integral ? Scalar::from_double(v) : Scalar::from_int(int64_t(v));
  };
  Tensor r;
  {
    NoGradGuard ng;
    r = a;
    if (lo) r = binary(BinaryOp::Maximum, r, sc(*lo));
    if (hi) r = binary(BinaryOp::Minimum, r, sc(*hi));
    if (r.is_same(a)) r = clone(a);
  }
  if (any_requires_grad({&a})) { record(r, {a}, ClampBackward1{a, lo, hi}); }
  return r;
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
