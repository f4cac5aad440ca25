// What the cuDNN kernels share (cudnn_conv.cu, cudnn_norm.cu): the error
// check, one handle per slot, dtypes, alpha/beta scalars and RAII tensor
// descriptors. Only .cu files of gpulab_cuda include this header.
#pragma once
#include <cudnn.h>
#include "tensor/core/dtype.h"
#include "tensor/kernels/dnn.h"
#include "tensor/runtime/cuda/cudnn_loader.h"
#include "tensor/runtime/cuda/exec.h"

namespace gl::cuda {

// Throws RuntimeError("CUDA error: <cuDNN's text> when calling `call`"),
// OutOfMemoryError for CUDNN_STATUS_ALLOC_FAILED.
[[noreturn]] void throw_cudnn(cudnnStatus_t st, const char* call);
#define GL_CUDNN(call) \
  do { \
    cudnnStatus_t st_ = (call); \
    if (st_ != CUDNN_STATUS_SUCCESS) [[unlikely]] \
      ::gl::cuda::throw_cudnn(st_, #call); \
  } while (0)

// The slot's handle, bound to its stream, made on first use (cudnn_conv.cu).
cudnnHandle_t cudnn_handle(Exec* ex);

cudnnDataType_t cudnn_data_type(DType d);

// What every cuDNN entry point starts with: the slot, its handle (made on
// first use), and the slot's device made current for the call.
struct CudnnCall {
  Exec* ex;
  cudnnHandle_t h;
  DeviceGuard device_guard;
  explicit CudnnCall(void* exec) : ex(as_exec(exec)), h(cudnn_handle(ex)), device_guard(ex->device) {}
};

// alpha/beta scalars: double for double data, float otherwise.
struct Scale {
  double d1 = 1, d0 = 0;
  float f1 = 1, f0 = 0;
  bool dbl;
  explicit Scale(DType t) : dbl(t == DType::Float64) {}
  const void* one() const { return dbl ? static_cast<const void*>(&d1) : &f1; }
  const void* zero() const { return dbl ? static_cast<const void*>(&d0) : &f0; }
};

struct TensorDesc {
  cudnnTensorDescriptor_t d = nullptr;
  TensorDesc(DType t, int64_t n, int64_t c, int64_t h, int64_t w) {
    GL_CUDNN(cudnn().cudnnCreateTensorDescriptor(&d));
    GL_CUDNN(
        cudnn().cudnnSetTensor4dDescriptor(d, CUDNN_TENSOR_NCHW, cudnn_data_type(t), int(n), int(c), int(h), int(w)));
  }
  ~TensorDesc() { cudnn().cudnnDestroyTensorDescriptor(d); }
  TensorDesc(const TensorDesc&) = delete;
  TensorDesc& operator=(const TensorDesc&) = delete;
};

// Batch norm (cudnn_norm.cu), for the table in cudnn_conv.cu.
bool batch_norm_fwd(void* exec, const NormGeom& g, bool training, const void* x, const void* scale, const void* shift,
                    void* y, void* save_mean, void* save_var, void* running_mean, void* running_var, void* reserve);
bool batch_norm_bwd(void* exec, const NormGeom& g, bool training, const void* x, const void* gy, const void* scale,
                    const void* save_mean, const void* save_var, void* reserve, void* gx, void* gscale, void* gshift);
size_t batch_norm_reserve(void* exec, const NormGeom& g);
bool batch_norm_takes(const NormGeom& g, bool training, bool affine, bool grad);

}  // namespace gl::cuda
