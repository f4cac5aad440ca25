// The derivatives of flip, roll, unfold, F.pad's index modes and embedding
// (tensor/ops/shape_extras.h), rows of derivative_rows.def. Each is built of
// recorded ops, so a gradient made with create_graph differentiates again.
#include "tensor/autograd/derivatives.h"
#include "tensor/ops/index_ops.h"
#include "tensor/ops/ops.h"
#include "tensor/ops/shape_extras.h"

namespace gl {

GL_DERIVATIVE(FlipBackward0) { return {flip(grad, dims)}; }

GL_DERIVATIVE(RollBackward0) {  // rolled back
  std::vector<int64_t> back(shifts.size());
  for (size_t i = 0; i < shifts.size(); ++i) back[i] = -shifts[i];
  return {roll(grad, back, dims)};
}

GL_DERIVATIVE(UnfoldBackward0) {  // each window's entries added back where they came from
  const TensorOptions o{grad.dtype(), grad.device()};
  if (self_sizes.empty()) return {size == 1 ? reshape(grad, {}) : zeros({}, o)};
  const int64_t nd = int64_t(self_sizes.size()), windows = grad.size(dimension);
  // (..., windows, ..., size) -> (..., windows * size, ...): window i's entry j at i * size + j
  std::vector<int64_t> order;
  for (int64_t d = 0; d < nd; ++d) {
    order.push_back(d);
    if (d == dimension) order.push_back(nd);
  }
  Shape merged = self_sizes;
  merged[size_t(dimension)] = windows * size;
  Tensor g = reshape(permute(grad, order), merged);
  std::vector<int64_t> idx;
  for (int64_t i = 0; i < windows; ++i)
    for (int64_t j = 0; j < size; ++j) idx.push_back(i * step + j);
  return {unpick_along(g, dimension, idx, self_sizes[size_t(dimension)])};
}

GL_DERIVATIVE(PadIndexBackward) {  // the adjoint of each dim's gather, last dim padded first
  Tensor g = grad;
  for (size_t k = dims.size(); k-- > 0;) g = unpick_along(g, dims[k], index[k], self_sizes[size_t(dims[k])]);
  return {g};
}

GL_DERIVATIVE(EmbeddingBackward0) {  // each looked-up row's gradient added into its row, padding_idx's left out
  const int64_t dim = grad.size(-1);
  Tensor g = reshape(grad, {int64_t(indices.size()), dim});
  std::vector<int64_t> rows, positions;
  for (size_t i = 0; i < indices.size(); ++i)
    if (indices[i] != padding_idx) {
      rows.push_back(indices[i]);
      positions.push_back(int64_t(i));
    }
  if (positions.size() != indices.size()) g = pick_along(g, 0, positions);
  Tensor i = from_host(rows.data(), {int64_t(rows.size())}, DType::Int64, {DType::Int64, grad.device()});
  return {index_add(zeros({num_weights, dim}, {grad.dtype(), grad.device()}), 0, i, g, Scalar::from_int(1))};
}

}  // namespace gl
