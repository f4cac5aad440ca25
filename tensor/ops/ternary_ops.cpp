// addcmul, addcdiv and lerp (Note [Ternary ops] in kernels/spec.h): one kernel
// each, so the rounding is PyTorch's, and the derivatives of
// derivatives.yaml's rows.
#include "tensor/autocast/autocast.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/autograd/saved.h"
#include "tensor/core/error.h"
#include "tensor/ops/inplace.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/promote.h"
#include "tensor/runtime/trace.h"

namespace gl {

namespace {

// The kernel over (a, b, c) broadcast together, c absent for lerp with a number
// weight; into `into` when it is the right tensor (the in-place fast path).
Tensor run(TernaryOp op, const Tensor& a0, const Tensor& b0, const Tensor* c0, DType dt, Scalar value,
           Tensor* into = nullptr) {
  Shape shape = broadcast_shapes(a0.sizes(), b0.sizes());
  if (c0) shape = broadcast_shapes(shape, c0->sizes());
  Device dev = c0 ? common_device({&a0, &b0, c0}) : common_device({&a0, &b0});  // Note [Shapes before devices]
  auto on = [&](const Tensor& t) { return to_dtype(t.device() == dev ? t : to(t, dev, std::nullopt), dt); };
  Tensor a = on(a0), b = on(b0), c = c0 ? on(*c0) : Tensor();
  Tensor out =
      into && into->sizes() == shape && into->dtype() == dt && into->device() == dev ? *into : empty_on(shape, dt, dev);
  TernarySpec s;
  s.op = op;
  s.compute = dt;
  s.value = value.to_double();
  s.value_i = value.kind == Scalar::Float ? Scalar::trunc_int(value.f) : value.to_int();
  s.scalar_weight = c0 == nullptr;
  s.loop = c0 ? make_loop(shape, {&out, &a, &b, &c}) : make_loop(shape, {&out, &a, &b});
  const DeviceSlot& sl = slot_for(dev);
  trace::op(op == TernaryOp::Addcmul ? "addcmul" : op == TernaryOp::Addcdiv ? "addcdiv" : "lerp", dev);
  sl.kernels->ternary(sl.exec, s);
  return out;
}

DType addc_dtype(const Tensor& self, const Tensor& t1, const Tensor& t2) {
  ResultType rt;
  rt.add(self);
  rt.add(t1);
  rt.add(t2);
  return rt.get();
}

void check_lerp(const Tensor& start, const Tensor& end, const Tensor* weight) {
  GL_CHECK(end.dtype() == start.dtype(), "expected dtype ", dtype_cpp_name(start.dtype()), " for `end` but got dtype ",
           dtype_cpp_name(end.dtype()));
  GL_CHECK(!weight || weight->dtype() == start.dtype(), "expected dtype ", dtype_cpp_name(start.dtype()),
           " for `weight` but got dtype ", dtype_cpp_name(weight->dtype()));
}

// In place through the out-of-place form: with autograd when self or an input
// needs it (Note [In-place autograd]), else write_in_place.
void inplace(Tensor& self, std::initializer_list<const Tensor*> others, DType dt,
             const std::function<Tensor(const Tensor&, Tensor*)>& f) {
  bool grad = any_requires_grad({&self});
  for (const Tensor* t : others) grad = grad || any_requires_grad({t});
  if (grad) return inplace_with_grad(self, [&](const Tensor& old) { return f(old, nullptr); });
  check_no_grad_inplace(self);
  write_in_place(self, others, dt, [&](Tensor* into) { return f(self, into); });
}

}  // namespace

Tensor addcmul(const Tensor& self, const Tensor& t1, const Tensor& t2, Scalar value, Tensor* into) {
  if (autocast::Scope ac{autocast::Op::addcmul, {&self, &t1, &t2}})
    return addcmul(ac(self), ac(t1), ac(t2), value, into);  // Note [Autocast]
  Tensor out;
  {
    NoGradGuard ng;
    out = run(TernaryOp::Addcmul, self, t1, &t2, addc_dtype(self, t1, t2), value, into);
  }
  if (any_requires_grad({&self, &t1, &t2})) {
    record(out, {self, t1, t2}, AddcmulBackward0{self, t1, t2, value.to_double()});
  }
  return out;
}

Tensor addcdiv(const Tensor& self, const Tensor& t1, const Tensor& t2, Scalar value, Tensor* into) {
  if (autocast::Scope ac{autocast::Op::addcdiv, {&self, &t1, &t2}})
    return addcdiv(ac(self), ac(t1), ac(t2), value, into);  // Note [Autocast]
  if (!is_floating(t1.dtype()) && !is_floating(t2.dtype()))
    throw RuntimeError(
        "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a true "
        "division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + value * "
        "torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * tensor1 / tensor2) "
        "for float inputs. The future addcdiv behavior is just the latter implementation: (input + value * tensor1 / "
        "tensor2), for all dtypes.");
  Tensor out;
  {
    NoGradGuard ng;
    out = run(TernaryOp::Addcdiv, self, t1, &t2, addc_dtype(self, t1, t2), value, into);
  }
  if (any_requires_grad({&self, &t1, &t2})) {
    record(out, {self, t1, t2}, AddcdivBackward0{self, t1, t2, value.to_double()});
  }
  return out;
}

Tensor lerp(const Tensor& start, const Tensor& end, Scalar weight, Tensor* into) {
  check_lerp(start, end, nullptr);
  Tensor out;
  {
    NoGradGuard ng;
    out = run(TernaryOp::Lerp, start, end, nullptr, start.dtype(), weight, into);
  }
  if (any_requires_grad({&start, &end})) { record(out, {start, end}, LerpBackward0{start, end, weight.to_double()}); }
  return out;
}

Tensor lerp(const Tensor& start, const Tensor& end, const Tensor& weight, Tensor* into) {
  check_lerp(start, end, &weight);
  Tensor out;
  {
    NoGradGuard ng;
    out = run(TernaryOp::Lerp, start, end, &weight, start.dtype(), Scalar::from_double(0), into);
  }
  if (any_requires_grad({&start, &end, &weight})) {
    record(out, {start, end, weight}, LerpBackward1{start, end, weight});
  }
  return out;
}

void addcmul_(Tensor& self, const Tensor& t1, const Tensor& t2, Scalar value) {
  Mutation written(self);  // Note [Version counter]
  inplace(self, {&t1, &t2}, addc_dtype(self, t1, t2),
          [&](const Tensor& s, Tensor* into) { return addcmul(s, t1, t2, value, into); });
}

void addcdiv_(Tensor& self, const Tensor& t1, const Tensor& t2, Scalar value) {
  Mutation written(self);  // Note [Version counter]
  inplace(self, {&t1, &t2}, addc_dtype(self, t1, t2),
          [&](const Tensor& s, Tensor* into) { return addcdiv(s, t1, t2, value, into); });
}

void lerp_(Tensor& self, const Tensor& end, Scalar weight) {
  Mutation written(self);  // Note [Version counter]
  inplace(self, {&end}, self.dtype(), [&](const Tensor& s, Tensor* into) { return lerp(s, end, weight, into); });
}

void lerp_(Tensor& self, const Tensor& end, const Tensor& weight) {
  Mutation written(self);  // Note [Version counter]
  inplace(self, {&end, &weight}, self.dtype(),
          [&](const Tensor& s, Tensor* into) { return lerp(s, end, weight, into); });
}

}  // namespace gl
