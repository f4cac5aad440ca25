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
  int64_t dim = 2;              // the input's dimensions
  double eps = 1e-5, momentum = 0.1;
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
  // Batch norm in float32, x as [N, C, S] (null where the library's is not
  // used: the op composes it). Training normalises by the batch's statistics
  // and writes them to save_mean and save_var in the library's own form, which
  // only its backward reads back (oneDNN: the biased variance; cuDNN: 1/sqrt(var
  // + eps), as PyTorch's save_invstd). Evaluation reads the running stats from
  // save_mean and save_var instead. scale and shift may be null (no affine).
  // `reserve` holds batch_norm_reserve bytes from the forward to the backward.
  // Returns false, having written nothing, where the library declines the
  // call after all (Note [cuDNN batch norm declines]): the op composes it.
  bool (*batch_norm_fwd)(void* exec, const NormGeom& g, bool training, const void* x, const void* scale,
                         const void* shift, void* y, void* save_mean, void* save_var, void* running_mean,
                         void* running_var, void* reserve);
  // gx (and gscale, gshift when not null); `training` as in the forward. The
  // library may write to `reserve` (cuDNN's is not const), so it is given a
  // copy. Returns false where the library declines after all (cuDNN's), and
  // the op computes the gradients from x (Note [cuDNN batch norm declines]).
  bool (*batch_norm_bwd)(void* exec, const NormGeom& g, bool training, const void* x, const void* gy, const void* scale,
                         const void* save_mean, const void* save_var, void* reserve, void* gx, void* gscale,
                         void* gshift);
  size_t (*batch_norm_reserve)(void* exec, const NormGeom& g);
  // Whether the library runs this batch norm (else the op composes it).
  // `grad` says whether a backward may follow.
  bool (*batch_norm_takes)(const NormGeom& g, bool training, bool affine, bool grad);
  // Whether the forward also updates running_mean and running_var (given,
  // float32, by g.momentum, as PyTorch's cudnn_batch_norm does); otherwise the
  // op updates them from the batch's mean and biased variance.
  bool batch_norm_updates_running;
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
