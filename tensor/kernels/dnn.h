// The deep-learning primitives (convolution, pooling) each backend takes from
// its library: oneDNN on the CPU and on virtual devices (their memory is the
// host's), cuDNN on a GPU. Every tensor passed is contiguous NCHW (weights
// [K, C/groups, R, S]) in `dtype`; the ops in tensor/ops/conv.cpp and pool.cpp
// check shapes, allocate, and record autograd.
#pragma once
#include <cstddef>
#include <cstdint>
#include "tensor/core/device.h"
#include "tensor/core/dtype.h"

namespace gl {

struct ConvGeom {
  DType dtype = DType::Float32;
  int64_t N = 0, C = 0, H = 0, W = 0;                                  // input
  int64_t K = 0, R = 0, S = 0;                                         // output channels, kernel height and width
  int64_t P = 0, Q = 0;                                                // output height and width
  int64_t sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1, groups = 1;  // symmetric padding
};

struct PoolGeom {
  DType dtype = DType::Float32;
  bool max = true;
  int64_t N = 0, C = 0, H = 0, W = 0, P = 0, Q = 0;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
  bool count_include_pad = true;  // average pooling: divide by the whole window
};

struct NormGeom {
  DType dtype = DType::Float32;
  int64_t N = 0, C = 0, S = 1;  // input [N, C, S...], S the product of the trailing sizes
  double eps = 1e-5;
};

struct DnnKernels {
  // y = conv(x, w) + b (b may be null).
  void (*conv_fwd)(void* exec, const ConvGeom& g, const void* x, const void* w, const void* b, void* y);
  void (*conv_bwd_data)(void* exec, const ConvGeom& g, const void* gy, const void* w, void* gx);
  // gw (and gb when not null) from x and gy, overwritten.
  void (*conv_bwd_weight)(void* exec, const ConvGeom& g, const void* x, const void* gy, void* gw, void* gb);
  // Bytes of the workspace the forward leaves for the backward (max pooling's argmax).
  size_t (*pool_workspace)(void* exec, const PoolGeom& g);
  void (*pool_fwd)(void* exec, const PoolGeom& g, const void* x, void* y, void* ws);
  void (*pool_bwd)(void* exec, const PoolGeom& g, const void* x, const void* y, const void* gy, const void* ws,
                   void* gx);
  // Batch norm (null where the library's is not used: the op composes it).
  // Training: writes the batch's mean and biased variance; else reads them
  // (the running stats). scale and shift may be null (no affine).
  void (*batch_norm_fwd)(void* exec, const NormGeom& g, bool training, const void* x, const void* scale,
                         const void* shift, void* y, void* mean, void* var);
  // gx (and gscale, gshift when not null); `training` as in the forward.
  void (*batch_norm_bwd)(void* exec, const NormGeom& g, bool training, const void* x, const void* gy, const void* scale,
                         const void* mean, const void* var, void* gx, void* gscale, void* gshift);
  // Convolves float16 and bfloat16 itself (cuDNN: float accumulation, tensor
  // cores); otherwise those convolve in float32 (Note [Reduced-precision convolution]).
  bool reduced_precision = false;
};

const DnnKernels& cpu_dnn_kernels();     // tensor/kernels/cpu/dnnl_*.cpp
const DnnKernels& im2col_dnn_kernels();  // tensor/kernels/cpu/im2col_conv.cpp (float64, and the benchmark's rival)
// The table for device d: the host's for CPU and virtual devices, cuDNN's for a GPU.
const DnnKernels& dnn_kernels_for(Device d);
void* dnn_exec_for(Device d);

}  // namespace gl
