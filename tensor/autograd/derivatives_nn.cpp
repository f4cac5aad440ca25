// The derivatives of the neural-network functions (Note [Derivative rows] in
// derivatives.h).
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/ops/ops.h"

namespace gl {

GL_DERIVATIVE(SoftmaxBackward0) { return {mul(result, sub(grad, sum(mul(grad, result), {dim}, true)))}; }

GL_DERIVATIVE(LogSoftmaxBackward0) { return {sub(grad, mul(unary(UnaryOp::Exp, result), sum(grad, {dim}, true)))}; }

// 2 (self - target) / n, n the element count under "mean", else 1.
GL_DERIVATIVE(MseLossBackward0) {
  Tensor d = binary(BinaryOp::Mul, sub(self, target), Scalar::from_double(2.0 / scale));
  Tensor ga = mul(d, grad);
  return {sum_to(ga, self.sizes()), sum_to(neg(ga), target.sizes())};
}

// -coef * grad, over the mean's denominator (ops' cross_entropy).
GL_DERIVATIVE(CrossEntropyBackward) {
  Tensor gg = none ? unsqueeze(reshape(grad, {-1}), 1) : grad;
  Tensor r = binary(BinaryOp::Sub, mul(coef, gg), Scalar::from_double(0.0), true);
  return {denom.defined() ? div(r, denom) : r};
}

GL_DERIVATIVE(DropoutBackward) { return {mul(grad, mask)}; }

GL_DERIVATIVE(BatchNormLibraryBackward) {
  return batch_norm_library_backward(grad, geom, training, input, weight, mean, var, reserve, need_weight, need_bias);
}

// A mixed-precision norm computed in xhat's float32 (Note [Mixed-precision
// norms]): the gradient goes up to it, and x's comes back in x's dtype.
GL_DERIVATIVE(BatchNormBackward) {
  const Tensor g = to_dtype(grad, xhat.dtype());
  Tensor dxhat = weight.defined() ? mul(g, reshape(weight, bshape)) : g;
  Tensor dx = training ? norm_backward(dxhat, xhat, invstd, dims) : mul(dxhat, invstd);
  Tensor dw = need_weight ? reshape(sum(mul(g, xhat), dims, false), {C}) : Tensor();
  Tensor db = need_bias ? reshape(sum(g, dims, false), {C}) : Tensor();
  return {to_dtype(dx, grad.dtype()), dw, db};
}

GL_DERIVATIVE(NativeLayerNormBackward0) {
  const Tensor g = to_dtype(grad, xhat.dtype());
  Tensor dxhat = weight.defined() ? mul(g, weight) : g;
  Tensor dx = norm_backward(dxhat, xhat, invstd, dims);
  Tensor dw = need_weight ? sum_to(mul(g, xhat), weight_sizes) : Tensor();
  Tensor db = need_bias ? sum_to(g, weight_sizes) : Tensor();
  return {to_dtype(dx, grad.dtype()), dw, db};
}

GL_DERIVATIVE(ConvolutionBackward0) {
  return convolution_backward(grad, geom, input, weight, need_input, need_weight, need_bias);
}

GL_DERIVATIVE(Pool2dBackward) {
  const Tensor g = scale != 1.0 ? binary(BinaryOp::Mul, grad, Scalar::from_double(scale)) : grad;
  return {pool2d_backward(g, geom, input, result, workspace)};
}

// The adaptive average is rows @ x @ cols^T.
GL_DERIVATIVE(AdaptiveAvgPool2DBackward0) { return {matmul(matmul(t(rows), grad), cols)}; }

}  // namespace gl
