// The derivatives of the linear-algebra rows of derivatives.h (Note
// [Derivative rows]), each as PyTorch's derivatives.yaml states it.
#include <cmath>
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/linalg_extra.h"
#include "tensor/ops/ops.h"

namespace gl {

GL_DERIVATIVE(MmBackward0) {
  return {self.requires_grad() ? mm_mat1_backward(grad, self, mat2) : Tensor(),
          mat2.requires_grad() ? mm_mat2_backward(grad, self, mat2) : Tensor()};
}

GL_DERIVATIVE(AddmmBackward0) {
  Tensor gb = sum_to(grad, self_sizes);
  if (beta != 1) gb = binary(BinaryOp::Mul, gb, Scalar::from_double(beta));
  Tensor ga = mat1.requires_grad() ? mm_mat1_backward(grad, mat1, mat2) : Tensor();
  Tensor gw = mat2.requires_grad() ? mm_mat2_backward(grad, mat1, mat2) : Tensor();
  if (alpha != 1) {
    if (ga.defined()) ga = binary(BinaryOp::Mul, ga, Scalar::from_double(alpha));
    if (gw.defined()) gw = binary(BinaryOp::Mul, gw, Scalar::from_double(alpha));
  }
  return {gb, ga, gw};
}

GL_DERIVATIVE(BmmBackward0) {
  return {self.requires_grad() ? bmm(grad, transpose(mat2, 1, 2)) : Tensor(),
          mat2.requires_grad() ? bmm(transpose(self, 1, 2), grad) : Tensor()};
}

GL_DERIVATIVE(DotBackward0) { return {mul(grad, tensor), mul(grad, self)}; }

GL_DERIVATIVE(MvBackward0) { return {mul(reshape(grad, {grad.size(0), 1}), vec), matmul(t(self), grad)}; }

// gB = solve(A^H, g); gA = -gB X^H (as columns for vectors).
GL_DERIVATIVE(LinalgSolveExBackward0) {
  const Tensor gB = linalg_solve(transpose(A, -2, -1), grad);
  const Tensor X = result;
  const Tensor gA =
      neg(matmul(vector_rhs ? unsqueeze(gB, -1) : gB, transpose(vector_rhs ? unsqueeze(X, -1) : X, -2, -1)));
  return {grad_for(gA, A), grad_for(gB, B)};
}

// -A^{-H} g A^{-H}
GL_DERIVATIVE(LinalgInvExBackward0) {
  const Tensor t = transpose(inverse, -2, -1);
  return {neg(matmul(matmul(t, grad), t))};
}

// g det A^{-T}; PyTorch also differentiates at singular matrices (through an SVD): not here.
GL_DERIVATIVE(LinalgDetBackward0) {
  Tensor inv;
  try {
    inv = linalg_inv(detach(A));
  } catch (const LinAlgError&) {
    throw NotImplementedError("gpulab: the gradient of linalg.det at a singular matrix is not implemented yet");
  }
  return {mul(unsqueeze(unsqueeze(mul(grad, result), -1), -1), transpose(inv, -2, -1))};
}

GL_DERIVATIVE(LogsumexpBackward0) {
  const Shape& in = self.sizes();
  return {
      mul(expand_back(grad, in, dim, keepdim), unary(UnaryOp::Exp, sub(self, expand_back(result, in, dim, keepdim))))};
}

GL_DERIVATIVE(LinalgVectorNormBackward0) {
  const Tensor& x = self;
  const Tensor g = expand_back(grad, x.sizes(), dim, keepdim), n = expand_back(result, x.sizes(), dim, keepdim);
  const Tensor sgn = unary(UnaryOp::Sign, x), zero = scalar_tensor(Scalar::from_int(0), n.dtype(), n.device());
  if (ord == 1) return {mul(g, sgn)};
  if (std::isinf(ord)) {  // shared evenly among the elements at the extreme
    Tensor hit = to_dtype(binary(BinaryOp::Eq, unary(UnaryOp::Abs, x), n), x.dtype());
    Tensor cnt = expand_back(sum(hit, dim, keepdim), x.sizes(), dim, keepdim);
    return {div(mul(mul(g, sgn), hit), cnt)};
  }
  // d|x|_p = x |x|^(p-2) / |x|_p^(p-1), zero where the norm is zero
  const Tensor safe = where(binary(BinaryOp::Eq, n, Scalar::from_int(0)), ones({}, {n.dtype(), n.device()}), n);
  Tensor num = ord == 2 ? x : mul(x, binary(BinaryOp::Pow, unary(UnaryOp::Abs, x), Scalar::from_double(ord - 2)));
  Tensor r = div(mul(g, num), ord == 2 ? safe : binary(BinaryOp::Pow, safe, Scalar::from_double(ord - 1)));
  return {where(binary(BinaryOp::Eq, n, Scalar::from_int(0)), zero, r)};
}

GL_DERIVATIVE(NormP2Backward) {
  const Shape& in = self.sizes();
  Tensor n = expand_back(result, in, dim, keepdim);
  Tensor safe = where(binary(BinaryOp::Eq, n, Scalar::from_int(0)), ones({}, {n.dtype(), n.device()}), n);
  return {mul(expand_back(grad, in, dim, keepdim), div(self, safe))};
}

}  // namespace gl
