// The derivatives of the views, shape ops and joins (Note [Derivative rows]
// in derivatives.h).
#include "tensor/autograd/backward_ops.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/shape_ops.h"

namespace gl {

GL_DERIVATIVE(ViewBackward0) { return {reshape(grad, self_sizes)}; }
GL_DERIVATIVE(UnsafeViewBackward0) { return {reshape(grad, self_sizes)}; }
GL_DERIVATIVE(TransposeBackward0) { return {grad.dim() == 0 ? grad : transpose(grad, dim0, dim1)}; }
GL_DERIVATIVE(TBackward0) { return {grad.dim() < 2 ? grad : t(grad)}; }
GL_DERIVATIVE(PermuteBackward0) { return {permute(grad, inverse)}; }
GL_DERIVATIVE(UnsqueezeBackward0) { return {squeeze(grad, dim)}; }
GL_DERIVATIVE(SqueezeBackward) { return {reshape(grad, self_sizes)}; }
GL_DERIVATIVE(ExpandBackward0) { return {sum_to(grad, self_sizes)}; }

GL_DERIVATIVE(SliceBackward0) { return {slice_backward(grad, self_sizes, self_options, dim, start, end, step)}; }
GL_DERIVATIVE(SelectBackward0) { return {select_backward(grad, self_sizes, self_options, dim, index)}; }
GL_DERIVATIVE(SplitPieceBackward) {
  return {slice_backward(grad, self_sizes, self_options, dim, start, start + length, 1)};
}
GL_DERIVATIVE(SliceBackwardBackward0) { return {slice(grad, dim, start, end, step)}; }
GL_DERIVATIVE(SelectBackwardBackward0) { return {select(grad, dim, index)}; }

GL_DERIVATIVE(CatBackward0) {
  Grads r;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i].size() == 1 && sizes[i][0] == 0) {  // a legacy empty input took no part
      r.emplace_back();
      continue;
    }
    r.push_back(to_dtype(narrow(grad, dim, starts[i], sizes[i][size_t(dim)]), dtypes[i]));
  }
  return r;
}

GL_DERIVATIVE(StackBackward0) {
  Grads r;
  for (size_t i = 0; i < dtypes.size(); ++i) r.push_back(to_dtype(select(grad, dim, int64_t(i)), dtypes[i]));
  return r;
}

GL_DERIVATIVE(TriangleBackward) {
  return {where(mask, grad, scalar_tensor(Scalar::from_int(0), grad.dtype(), grad.device()))};
}

GL_DERIVATIVE(DiagEmbedBackward0) { return {clone(diagonal_view(grad, offset))}; }

GL_DERIVATIVE(DiagonalBackward0_copy) { return {diagonal_backward(grad, self_sizes, offset)}; }
GL_DERIVATIVE(DiagonalBackwardBackward0) { return {clone(diagonal_view(grad, offset))}; }

GL_DERIVATIVE(TraceBackward0) {  // grad (0-d) broadcast along the diagonal
  const int64_t n = std::min(self_sizes[0], self_sizes[1]);
  return {diagonal_backward(expand(grad, {n}), self_sizes, 0)};
}

GL_DERIVATIVE(ConstantPadNdBackward0) {  // the padding cropped away, the crop padded back with zeros
  std::vector<int64_t> negated(pad.size());
  for (size_t i = 0; i < pad.size(); ++i) negated[i] = -pad[i];
  return {constant_pad_nd(grad, negated, Scalar::from_int(0))};
}

}  // namespace gl
