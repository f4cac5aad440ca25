// The functions the derivative rows (derivatives.h) call beyond the public
// ops, as PyTorch's FunctionsManual: each is defined beside the forward whose
// internals it shares (the file named on its line).
#pragma once
#include <vector>
#include "tensor/core/tensor.h"
#include "tensor/kernels/dnn.h"
#include "tensor/ops/indexing.h"

namespace gl {

// Gradients of self @ mat2 in the layout of each input (matmul.cpp).
Tensor mm_mat1_backward(const Tensor& grad, const Tensor& self, const Tensor& mat2);
Tensor mm_mat2_backward(const Tensor& grad, const Tensor& self, const Tensor& mat2);

// g, reduced over dims (kept or not), broadcast back to in_shape (reduce.cpp).
Tensor expand_back(const Tensor& g, const Shape& in_shape, const std::vector<int64_t>& dims, bool keepdim);

// g placed at `indices` along dim in zeros of self_sizes; `squeezed`: g and
// the indices lack dim (sort_ops.cpp).
Tensor selection_backward(const Tensor& grad, const Tensor& indices, const Shape& self_sizes, int64_t dim,
                          bool squeezed);

// cumsum from the end, in t's dtype, recording nothing (scan.cpp).
Tensor reversed_cumsum(const Tensor& t, int64_t dim);
// PyTorch's cumprod_backward, zeros in x included (scan.cpp).
Tensor cumprod_backward(const Tensor& grad, const Tensor& x, const Tensor& out, int64_t dim);

// The k-th diagonal of a matrix as a strided view, recording nothing (shape_ops.cpp).
Tensor diagonal_view(const Tensor& m, int64_t k);

// The gradient of slice(self, dim, start, end, step) and select(self, dim,
// index): grad in zeros of self's shape, recorded as PyTorch's
// SliceBackwardBackward0 / SelectBackwardBackward0 when grad needs a
// gradient itself (create_graph) (view_backward.cpp).
Tensor slice_backward(const Tensor& grad, const Shape& self_sizes, const TensorOptions& o, int64_t dim, int64_t start,
                      int64_t end, int64_t step);
Tensor select_backward(const Tensor& grad, const Shape& self_sizes, const TensorOptions& o, int64_t dim, int64_t index);

// grad on the offset-th diagonal of zeros of self_sizes (diagonal's and,
// grad expanded along it, trace's gradient), recorded as
// DiagonalBackwardBackward0 under create_graph (view_backward.cpp).
Tensor diagonal_backward(const Tensor& grad, const Shape& self_sizes, int64_t offset);

// x[items] for integers, slices, '...' and None: a view (indexing.cpp).
Tensor basic_index(const Tensor& t, const std::vector<IndexItem>& items);

// dx of a normalisation over dims in training mode, from dxhat = g * weight (norm.cpp).
Tensor norm_backward(const Tensor& dxhat, const Tensor& xhat, const Tensor& invstd, const std::vector<int64_t>& dims);

// The library kernels' backward passes: input, weight and bias gradients,
// undefined where not needed (norm.cpp, conv.cpp, pool.cpp).
std::vector<Tensor> batch_norm_library_backward(const Tensor& grad, const NormGeom& geom, bool training,
                                                const Tensor& input, const Tensor& weight, const Tensor& mean,
                                                const Tensor& var, const Tensor& reserve, bool need_weight,
                                                bool need_bias);
// Batch norm's training backward from the input itself, for a library that
// declined its own backward (Note [cuDNN batch norm declines], norm.cpp).
std::vector<Tensor> batch_norm_backward_from_input(const Tensor& grad, const NormGeom& geom, const Tensor& input,
                                                   const Tensor& weight, bool need_weight, bool need_bias);
std::vector<Tensor> convolution_backward(const Tensor& grad, const ConvGeom& geom, const Tensor& input,
                                         const Tensor& weight, bool need_input, bool need_weight, bool need_bias);
Tensor pool2d_backward(const Tensor& grad, const PoolGeom& geom, const Tensor& input, const Tensor& result,
                       const Tensor& workspace);

}  // namespace gl
