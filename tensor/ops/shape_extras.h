// Shape ops learners reach for after the basics (shape_extras.cpp, pad_modes.cpp,
// embedding.cpp): flip, roll, tile, unfold, F.pad's reflect / replicate /
// circular modes and embedding, each with PyTorch's checks, wording and
// grad_fn. Each is built from one gather per dimension (an index computed on
// the host), so it runs on every device with no kernel of its own.
#pragma once
#include <optional>
#include <string>
#include <vector>
#include "tensor/core/tensor.h"

namespace gl {

// torch.flip(x, dims): the order of the entries reversed along each of dims (FlipBackward0).
Tensor flip(const Tensor& x, const std::vector<int64_t>& dims);
Tensor fliplr(const Tensor& x);  // flip(x, {1}), for at least 2 dims
Tensor flipud(const Tensor& x);  // flip(x, {0}), for at least 1 dim
// torch.roll(x, shifts, dims): entries moved shifts[k] places along dims[k],
// those past the end coming back at the start; no dims: x flattened, rolled
// by shifts[0], and given its shape back (RollBackward0).
Tensor roll(const Tensor& x, const std::vector<int64_t>& shifts, const std::vector<int64_t>& dims);
// torch.tile(x, dims): x.repeat(dims) once dims is padded with leading 1s to x's rank.
Tensor tile(const Tensor& x, std::vector<int64_t> dims);
// x.unfold(dimension, size, step): a view whose last dim is each window of
// `size` entries along `dimension`, windows `step` apart (UnfoldBackward0).
Tensor unfold(const Tensor& x, int64_t dimension, int64_t size, int64_t step);

// F.pad's modes 'reflect', 'replicate' and 'circular' (pad_modes.cpp), after
// the checks all modes share: PyTorch's rules for which pad lengths go with
// which input ranks, its errors, and its grad_fns (ReflectionPad1DBackward0 ...
// ReplicationPad3DBackward0; circular, composed of slices in PyTorch, CopySlices).
Tensor pad_by_mode(const Tensor& x, const std::vector<int64_t>& pad, const std::string& mode,
                   std::optional<double> value);

// F.embedding(input, weight, padding_idx) (embedding.cpp): weight's rows at
// input (int64 or int32), shaped input.shape + (D,); padding_idx (already
// made non-negative, or nullopt) gets no gradient (EmbeddingBackward0).
Tensor embedding(const Tensor& input, const Tensor& weight, std::optional<int64_t> padding_idx);

// The ops' and derivatives' helpers: x's slices along dim at the
// host-computed idx (one gather), and its adjoint, grad's slices added into
// zeros of `size` at idx. Both record under grad mode (a gradient made with
// create_graph differentiates again); the forwards call them under NoGradGuard.
Tensor pick_along(const Tensor& x, int64_t dim, const std::vector<int64_t>& idx);
Tensor unpick_along(const Tensor& grad, int64_t dim, const std::vector<int64_t>& idx, int64_t size);

}  // namespace gl
