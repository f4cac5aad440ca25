// The derivatives of the reductions, selections and scans outside
// reduce_rows.def (Note [Derivative rows] in derivatives.h).
#include <cmath>
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"

namespace gl {

GL_DERIVATIVE(MeanBackward) {
  return {binary(BinaryOp::Div, expand_back(grad, self_sizes, dim, keepdim), Scalar::from_double(double(count)))};
}

// A one-hot of the chosen index along dim, times grad.
GL_DERIVATIVE(MaxMinDimBackward) {
  const Shape& in = self_sizes;
  Shape ar_shape(in.size(), 1);
  if (!in.empty()) ar_shape[size_t(dim)] = in[size_t(dim)];
  Tensor ar = reshape(arange(Scalar::from_int(0), Scalar::from_int(in.empty() ? 1 : in[size_t(dim)]),
                             Scalar::from_int(1), DType::Int64, {DType::Int64, grad.device()}),
                      ar_shape);
  Tensor hit = binary(BinaryOp::Eq, ar, expand_back(indices, in, dims, keepdim));
  return {where(hit, expand_back(grad, in, dims, keepdim), zeros({}, {grad.dtype(), grad.device()}))};
}

// Shared evenly among the tied extremes.
GL_DERIVATIVE(AmaxAminBackward) {
  Tensor o = reshape(result, keep_shape), gg = reshape(grad, keep_shape);
  Tensor fm = to_dtype(binary(BinaryOp::Eq, self, o), grad.dtype());
  std::vector<int64_t> all;
  for (int64_t i = 0; i < self.dim(); ++i)
    if (keep_shape[size_t(i)] == 1) all.push_back(i);
  Tensor cnt = all.empty() ? ones({}, {grad.dtype(), grad.device()}) : sum(fm, all, true);
  return {div(mul(gg, fm), cnt)};
}

// Evenly among the elements equal to the median (PyTorch's evenly_distribute_backward).
GL_DERIVATIVE(MedianBackward0) {
  const bool is_nan = std::isnan(item(result).to_double());
  Tensor mask = is_nan ? unary(UnaryOp::IsNan, self) : binary(BinaryOp::Eq, self, result);
  Tensor fm = to_dtype(mask, grad.dtype());
  return {mul(fm, div(grad, sum(fm, {}, false)))};
}

GL_DERIVATIVE(SelectionBackward) { return {selection_backward(grad, indices, self_sizes, dim, squeezed)}; }

GL_DERIVATIVE(CumsumBackward0) {
  const Tensor g = to_dtype(grad, self_dtype);
  if (g.numel() <= 1 || g.dim() == 0 || g.size(dim) == 1) return {g};
  return {reversed_cumsum(g, dim)};
}

GL_DERIVATIVE(CumprodBackward0) {
  return {cumprod_backward(to_dtype(grad, self_dtype), self, to_dtype(result, self_dtype), dim)};
}

// PyTorch records these nodes but has no derivative for them.
GL_DERIVATIVE(Unique2Backward0) { throw NotImplementedError("the derivative for '_unique2' is not implemented."); }
GL_DERIVATIVE(UniqueDimBackward0) { throw NotImplementedError("the derivative for 'unique_dim' is not implemented."); }

}  // namespace gl
