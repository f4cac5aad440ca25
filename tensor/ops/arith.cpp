// add/sub with alpha and div with a rounding mode: the options of PyTorch's
// arithmetic ops, over the plain binary ops.
#include "tensor/autograd/saved.h"
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/promote.h"

namespace gl {

namespace {

Tensor apply(BinaryOp op, const Tensor& x, Other y) { return y.t ? binary(op, x, *y.t) : binary(op, x, y.s); }
void apply_(BinaryOp op, Tensor& x, Other y) { y.t ? binary_(op, x, *y.t) : binary_(op, x, y.s); }

// x op alpha * y for op Add or Sub; in place into `self` when given (then x is *self).
Tensor alpha_op(BinaryOp op, const Tensor& x, Other y, Scalar alpha, Tensor* self) {
  // A bool operand of sub is refused before anything is scaled (the op raises
  // PyTorch's error itself).
  if (op == BinaryOp::Sub &&
      (x.dtype() == DType::Bool || (y.t ? y.t->dtype() == DType::Bool : y.s.kind == Scalar::Bool)))
    apply(op, x, y);
  // PyTorch checks alpha against the result dtype; a bool result takes it as a bool.
  ResultType rt;
  rt.add(x);
  y.t ? rt.add(*y.t) : rt.add(y.s);
  const DType result = rt.get();
  GL_CHECK(alpha.kind != Scalar::Float || is_floating(result),
           "For integral input tensors, argument alpha must not be a floating point number.");
  GL_CHECK(alpha.kind != Scalar::Bool || result == DType::Bool, "Boolean alpha only supported for Boolean results.");
  if (result == DType::Bool) alpha = Scalar::from_bool(alpha.i != 0);
  if (y.t && is_floating(result) && alpha.to_double() != 1.0) {  // one rounding (Note [Add with alpha])
    if (!self) return add_scaled(op, x, *y.t, alpha.to_double());
    add_scaled_(op, *self, *y.t, alpha.to_double());
    return *self;
  }
  Other scaled = y;
  Tensor scaled_t;
  if (!y.t) {
    const Scalar& s = y.s;
    scaled.s = result == DType::Bool ? Scalar::from_bool(s.i != 0 && alpha.i != 0)
               : s.kind == Scalar::Float || alpha.kind == Scalar::Float
                   ? Scalar::from_double(s.to_double() * alpha.to_double())
                   : Scalar::from_int(int64_t(uint64_t(s.i) * uint64_t(alpha.i)));  // wraps, as PyTorch
  } else if (alpha.to_double() != 1.0) {
    scaled_t = binary(BinaryOp::Mul, *y.t, alpha);
    scaled.t = &scaled_t;
  }
  if (!self) return apply(op, x, scaled);
  apply_(op, *self, scaled);
  return *self;
}

// Division rounded toward zero: trunc(x / y) for floats; for integers the floor
// quotient, plus one where the exact quotient is negative and not whole.
Tensor div_trunc(const Tensor& x, const Tensor& y) {
  Tensor q = binary(BinaryOp::FloorDivide, x, y);
  if (is_floating(q.dtype())) return unary(UnaryOp::Trunc, binary(BinaryOp::Div, x, y));
  Tensor inexact = binary(BinaryOp::Ne, binary(BinaryOp::Remainder, x, y), Scalar::from_int(0));
  Tensor negative = binary(BinaryOp::LogicalXor, binary(BinaryOp::Lt, x, Scalar::from_int(0)),
                           binary(BinaryOp::Lt, y, Scalar::from_int(0)));
  return binary(BinaryOp::Add, q, to_dtype(binary(BinaryOp::LogicalAnd, inexact, negative), q.dtype()));
}

}  // namespace

Tensor add(const Tensor& x, Other y, Scalar alpha) { return alpha_op(BinaryOp::Add, x, y, alpha, nullptr); }
Tensor sub(const Tensor& x, Other y, Scalar alpha) { return alpha_op(BinaryOp::Sub, x, y, alpha, nullptr); }
Tensor add(const Tensor& x, const Tensor& y, Scalar alpha) { return add(x, Other::of(y), alpha); }
void add_(Tensor& x, Other y, Scalar alpha) {
  Mutation written(x);  // Note [Version counter]
  alpha_op(BinaryOp::Add, x, y, alpha, &x);
}
void sub_(Tensor& x, Other y, Scalar alpha) {
  Mutation written(x);  // Note [Version counter]
  alpha_op(BinaryOp::Sub, x, y, alpha, &x);
}

void check_rounding_mode(const std::string& mode) {
  GL_CHECK(mode == "trunc" || mode == "floor",
           "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '" + mode + "'");
}

Tensor div(const Tensor& x, const Tensor& y, const std::optional<std::string>& mode) {
  if (!mode) return binary(BinaryOp::Div, x, y);
  check_rounding_mode(*mode);
  return *mode == "floor" ? binary(BinaryOp::FloorDivide, x, y) : div_trunc(x, y);
}

void div_(Tensor& x, Other y, const std::optional<std::string>& mode) {
  Mutation written(x);  // Note [Version counter]
  if (!mode) return apply_(BinaryOp::Div, x, y);
  check_rounding_mode(*mode);
  if (*mode == "floor") return apply_(BinaryOp::FloorDivide, x, y);
  const Tensor yt = y.t ? *y.t : scalar_tensor(y.s, scalar_default_dtype(y.s), Device());
  if (is_floating(x.dtype())) {
    binary_(BinaryOp::Div, x, yt);
    unary_(UnaryOp::Trunc, x);
    return;
  }
  Tensor r = div_trunc(x, yt);
  if (r.dtype() != x.dtype()) binary_(BinaryOp::Div, x, yt);  // raises PyTorch's cast error
  else copy_(x, r);
}

}  // namespace gl
