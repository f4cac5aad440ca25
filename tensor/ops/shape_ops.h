// Matrix-shape and layout ops composed from the primitives (shape_ops.cpp):
// triangles, diagonals, outer and matrix-vector products, repeats, grids,
// unflatten, squeeze over several dims, amax/amin over several dims.
#pragma once
#include <optional>
#include <string>
#include <vector>
#include "tensor/core/tensor.h"

namespace gl {

// pad.cpp: PyTorch's constant_pad_nd (pad lists (left, right) pairs from the
// last dim backwards; negative pads crop) and F.pad (value nil is 0; the
// modes other than 'constant': pad_by_mode, shape_extras.h).
Tensor constant_pad_nd(const Tensor& x, const std::vector<int64_t>& pad, Scalar value);
Tensor pad(const Tensor& x, const std::vector<int64_t>& pad, const std::string& mode, std::optional<double> value);

Tensor tril(const Tensor& t, int64_t diagonal);
Tensor triu(const Tensor& t, int64_t diagonal);
Tensor diag(const Tensor& t, int64_t diagonal);
Tensor trace(const Tensor& t);
Tensor outer(const Tensor& a, const Tensor& b);
Tensor mv(const Tensor& m, const Tensor& v);
Tensor repeat_interleave(const Tensor& t, int64_t repeats, std::optional<int64_t> dim);
Tensor repeat_interleave(const Tensor& t, const Tensor& repeats, std::optional<int64_t> dim);
Tensor repeat_interleave(const Tensor& repeats);  // torch.repeat_interleave(repeats): i repeated repeats[i] times
Tensor logspace(double start, double end, int64_t steps, double base, const TensorOptions& o);
std::vector<Tensor> meshgrid(const std::vector<Tensor>& ts, const std::string& indexing);
Tensor unflatten(const Tensor& t, int64_t dim, const Shape& sizes);
Tensor squeeze_dims(const Tensor& t, const std::vector<int64_t>& dims);
Tensor amax_dims(const Tensor& t, const std::vector<int64_t>& dims, bool keepdim);
Tensor amin_dims(const Tensor& t, const std::vector<int64_t>& dims, bool keepdim);

}  // namespace gl
