// The derivatives of the elementwise ops that are not rows of op_rows.def,
// copies and samplers (Note [Derivative rows] in derivatives.h).
#include "tensor/autograd/derivatives.h"
#include "tensor/ops/ops.h"

namespace gl {

GL_DERIVATIVE(AddAlphaBackward) {
  return {to_dtype(sum_to(grad, self_sizes), self_dtype),
          to_dtype(sum_to(binary(BinaryOp::Mul, grad, Scalar::from_double(alpha)), other_sizes), other_dtype)};
}

GL_DERIVATIVE(WhereBackward0) {
  Tensor z = zeros({}, {grad.dtype(), grad.device()});
  return {grad_for(where(condition, grad, z), self), grad_for(where(condition, z, grad), other)};
}

// Zero at and beyond the bounds, as PyTorch's clamp_backward.
GL_DERIVATIVE(ClampBackward1) {
  Tensor mask = ones(self.sizes(), {DType::Bool, self.device()});
  if (min) mask = binary(BinaryOp::LogicalAnd, mask, binary(BinaryOp::Gt, self, Scalar::from_double(*min)));
  if (max) mask = binary(BinaryOp::LogicalAnd, mask, binary(BinaryOp::Lt, self, Scalar::from_double(*max)));
  return {where(mask, grad, zeros({}, {grad.dtype(), grad.device()}))};
}

GL_DERIVATIVE(AddcmulBackward0) {
  const Scalar v = Scalar::from_double(value);
  return {grad_for(grad, self), grad_for(mul(binary(BinaryOp::Mul, grad, v), tensor2), tensor1),
          grad_for(mul(binary(BinaryOp::Mul, grad, v), tensor1), tensor2)};
}

GL_DERIVATIVE(AddcdivBackward0) {
  const Tensor gv = binary(BinaryOp::Mul, grad, Scalar::from_double(value));
  return {grad_for(grad, self), grad_for(div(gv, tensor2), tensor1),
          grad_for(neg(div(mul(gv, tensor1), mul(tensor2, tensor2))), tensor2)};
}

GL_DERIVATIVE(LerpBackward0) {
  return {grad_for(binary(BinaryOp::Mul, grad, Scalar::from_double(1 - weight)), self),
          grad_for(binary(BinaryOp::Mul, grad, Scalar::from_double(weight)), end)};
}

GL_DERIVATIVE(LerpBackward1) {
  return {grad_for(mul(grad, binary(BinaryOp::Sub, weight, Scalar::from_int(1), true)), self),
          grad_for(mul(grad, weight), end), grad_for(mul(grad, binary(BinaryOp::Sub, end, self)), weight)};
}

GL_DERIVATIVE(RoundBackward1) { return {zeros(self_sizes, self_options)}; }

GL_DERIVATIVE(ToCopyBackward0) { return {to(grad, self_device, self_dtype)}; }
GL_DERIVATIVE(CloneBackward0) { return {grad}; }
// The overwrites: self's old values get no gradient.
namespace {
Tensor zeros_like_grad(const Tensor& grad) { return zeros(grad.sizes(), {grad.dtype(), grad.device()}); }
}  // namespace
GL_DERIVATIVE(ZeroBackward0) { return {zeros_like_grad(grad)}; }
GL_DERIVATIVE(FillBackward2) { return {zeros_like_grad(grad)}; }
GL_DERIVATIVE(FillBackward3) { return {zeros_like_grad(grad), to(sum_to(grad, {}), value_device, value_dtype)}; }
GL_DERIVATIVE(CopyBackwards) { return {zeros_like_grad(grad), to(sum_to(grad, src_sizes), src_device, src_dtype)}; }
GL_DERIVATIVE(PinMemoryBackward0) { return {grad}; }

GL_DERIVATIVE(SamplerBackward) {
  Grads g;
  for (size_t i = 0; i < sizes.size(); ++i) g.push_back(zeros(sizes[i], options[i]));
  return g;
}

}  // namespace gl
