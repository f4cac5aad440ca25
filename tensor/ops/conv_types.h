// The texts of PyTorch's convolution when its weight or bias has another dtype
// or device than its input (conv.cpp's helper; Note [Convolution type errors]).
#pragma once
#include "tensor/core/tensor.h"
#include "tensor/ops/nn_conv.h"

namespace gl {

// conv2d's first check, before even the input's rank: the bias's dtype.
void check_conv_bias_dtype(const Tensor& input, const Tensor* bias);
// After the shapes: the weight's and bias's dtype and device, worded by the
// backend PyTorch would take (stride, dilation and groups are pairs by then).
void check_conv_types(const Tensor& input, const Tensor& weight, const Tensor* bias, const Conv2dOptions& o);

}  // namespace gl
