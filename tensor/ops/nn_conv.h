// Convolution, pooling and normalisation layers' functions (conv.cpp, pool.cpp,
// norm.cpp), each recording the node PyTorch records. Convolution and pooling
// run on the device's library (tensor/kernels/dnn.h); the normalisations are
// built from elementwise ops and reductions, with their own backward.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include "tensor/core/tensor.h"

namespace gl {

struct Conv2dOptions {
  std::vector<int64_t> stride{1, 1}, padding{0, 0}, dilation{1, 1};
  std::string padding_mode;  // "same" or "valid" (then `padding` is unused), or empty
  int64_t groups = 1;
};
// input [N, C, H, W] or [C, H, W]; weight [K, C/groups, R, S]; bias [K] or null.
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor* bias, const Conv2dOptions& o);

struct Pool2dOptions {
  std::vector<int64_t> kernel, stride, padding{0, 0}, dilation{1, 1};  // stride empty: the kernel
  bool ceil_mode = false;
  bool count_include_pad = true;            // average pooling
  std::optional<int64_t> divisor_override;  // average pooling: divide each window's sum by this instead
};
Tensor max_pool2d(const Tensor& input, const Pool2dOptions& o);
Tensor avg_pool2d(const Tensor& input, const Pool2dOptions& o);
// max_pool2d(return_indices=True): the values and each one's h * W + w in its plane.
std::pair<Tensor, Tensor> max_pool2d_with_indices(const Tensor& input, const Pool2dOptions& o);
// output_size: {h, w}, -1 keeps that input size (PyTorch's None).
Tensor adaptive_avg_pool2d(const Tensor& input, std::vector<int64_t> output_size);

// PyTorch's F.batch_norm: running stats (may be undefined) are updated in place
// when training (the layer turns momentum=None into 1/num_batches_tracked).
Tensor batch_norm(const Tensor& input, Tensor running_mean, Tensor running_var, const Tensor* weight,
                  const Tensor* bias, bool training, double momentum, double eps);
Tensor layer_norm(const Tensor& input, const std::vector<int64_t>& normalized_shape, const Tensor* weight,
                  const Tensor* bias, double eps);

// Expands an int or a pair given as a list to two values, PyTorch's message
// naming `what` otherwise.
std::vector<int64_t> pair_of(const std::vector<int64_t>& v, const char* what);

}  // namespace gl
