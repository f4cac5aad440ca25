// Whole-tensor comparisons that answer with one bool: equal, allclose.
#include "tensor/ops/composite.h"

namespace gl {

bool equal(const Tensor& a, const Tensor& b) {
  return a.sizes() == b.sizes() && item(all(binary(BinaryOp::Eq, a, b), std::nullopt, false)).i != 0;
}

// |a - b| <= atol + rtol * |b|, elementwise, computed in float64.
bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol) {
  Tensor ad = to_dtype(a, DType::Float64), bd = to_dtype(b, DType::Float64);
  Tensor diff = unary(UnaryOp::Abs, sub(ad, bd));
  Tensor tol = binary(BinaryOp::Add, binary(BinaryOp::Mul, unary(UnaryOp::Abs, bd), Scalar::from_double(rtol)),
                      Scalar::from_double(atol));
  return item(all(binary(BinaryOp::Le, diff, tol), std::nullopt, false)).i != 0;
}

}  // namespace gl
