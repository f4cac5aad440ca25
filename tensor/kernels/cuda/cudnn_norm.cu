// Batch norm on a GPU by cuDNN, called as PyTorch's cudnn_batch_norm calls it
// (aten/src/ATen/native/cudnn/BatchNorm.cpp), so a GPU gives PyTorch's
// numbers: training by cudnnBatchNormalizationForwardTrainingEx in
// CUDNN_BATCHNORM_SPATIAL mode (PyTorch's for contiguous input: its
// SPATIAL_PERSISTENT, for channels-last, loses accuracy and may overflow on
// large values in NCHW, cuDNN's manual says), which also updates the running
// stats (unbiased variance) and saves the batch's mean and 1/sqrt(var + eps)
// for cudnnBatchNormalizationBackwardEx; evaluation by
// cudnnBatchNormalizationForwardInference in CUDNN_BATCHNORM_SPATIAL mode.
// cuDNN has no backward for evaluation, and PyTorch gives cuDNN only inputs
// of 3 or more dimensions with weight and bias, so batch_norm_takes leaves
// the other calls to the op's composed form, as PyTorch leaves them to its
// native kernels. x is [N, C, S] seen as NCHW [N, C, S, 1], float32.
#include <cudnn.h>
#include <atomic>
#include <mutex>
#include <string>
#include "tensor/core/error.h"
#include "tensor/core/warning.h"
#include "tensor/kernels/cuda/cudnn_common.h"

namespace gl::cuda {
namespace {

constexpr cudnnBatchNormOps_t kOps = CUDNN_BATCHNORM_OPS_BN;
constexpr cudnnBatchNormMode_t kTrainMode = CUDNN_BATCHNORM_SPATIAL;  // the reserve query, forward and backward alike

// The input's and the per-channel vectors' descriptors.
struct NormDescs {
  TensorDesc x, c;
  explicit NormDescs(const NormGeom& g) : x(DType::Float32, g.N, g.C, g.S, 1), c(DType::Float32, 1, g.C, 1, 1) {}
};

size_t aligned(size_t n) { return (n + 255) & ~size_t(255); }

// Note [cuDNN batch norm declines]: this file was written without a GPU to
// run it on. Should cuDNN refuse a call as a bad parameter or as not
// supported, gpulab warns once and leaves batch norm to the op's composed
// form from then on, instead of failing a learner's model: a refused forward
// is composed at once, a refused backward from the input the node saved
// (norm.cpp). Every other status is an error as usual. (A GPU check treats
// the warning as a failure: it hides a bug of gpulab's as well as a limit of cuDNN's.)
std::atomic<bool> g_declined{false};

bool declined(cudnnStatus_t st, const char* call) {
  if (st == CUDNN_STATUS_SUCCESS) return false;
  const int category = int(st) / 1000;
  if (category != 2 && category != 3) throw_cudnn(st, call);
  if (!g_declined.exchange(true))
    warn(cat("gpulab: cuDNN's batch norm refused ", call, " (", cudnn().cudnnGetErrorString(st),
             "); batch norm on GPUs is composed from gpulab's own kernels from now on"));
  return true;
}

// The reserve the training forward leaves for the backward, asked by both
// with the same mode: false where cuDNN refuses the query.
bool reserve_size(cudnnHandle_t h, const NormDescs& d, size_t* bytes) {
  return !declined(
      cudnn().cudnnGetBatchNormalizationTrainingExReserveSpaceSize(h, kTrainMode, kOps, nullptr, d.x.d, bytes),
      "cudnnGetBatchNormalizationTrainingExReserveSpaceSize");
}

}  // namespace

bool batch_norm_takes(const NormGeom& g, bool training, bool affine, bool grad) {
  // Without cuDNN a GPU still normalises, by the composed form.
  static const bool loadable = [] {
    std::string version, error;
    return cudnn_available(&version, &error);
  }();
  if (!loadable || g_declined.load() || !affine || g.dim < 3 || g.eps < CUDNN_BN_MIN_EPSILON) return false;
  if (g.N * g.C * g.S >= int64_t(INT32_MAX)) return false;  // cuDNN's 32-bit indexing
  return training ? g.N <= 880801 : g.N <= 65535 && !grad;
}

size_t batch_norm_reserve(void* exec, const NormGeom& g) {
  const CudnnCall call(exec);
  cudnnHandle_t h = call.h;
  NormDescs d(g);
  size_t bytes = 0;
  // A refusal here is the forward's to report: it asks again.
  const cudnnStatus_t st =
      cudnn().cudnnGetBatchNormalizationTrainingExReserveSpaceSize(h, kTrainMode, kOps, nullptr, d.x.d, &bytes);
  return st == CUDNN_STATUS_SUCCESS ? bytes : 0;
}

bool batch_norm_fwd(void* exec, const NormGeom& g, bool training, const void* x, const void* scale, const void* shift,
                    void* y, void* save_mean, void* save_var, void* running_mean, void* running_var, void* reserve) {
  GL_CHECK(scale && shift, "gpulab: cuDNN's batch norm needs a weight and a bias (batch_norm_takes)");
  const CudnnCall call(exec);
  Exec* ex = call.ex;
  cudnnHandle_t h = call.h;
  const CudnnApi& api = cudnn();
  NormDescs d(g);
  const Scale s(DType::Float32);
  if (!training)
    return !declined(
        api.cudnnBatchNormalizationForwardInference(h, CUDNN_BATCHNORM_SPATIAL, s.one(), s.zero(), d.x.d, x, d.x.d, y,
                                                    d.c.d, scale, shift, save_mean, save_var, g.eps),
        "cudnnBatchNormalizationForwardInference");
  const cudnnBatchNormMode_t mode = kTrainMode;
  size_t ws_bytes = 0, reserve_bytes = 0;
  if (declined(api.cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(h, mode, kOps, d.x.d, d.x.d, d.x.d, d.c.d,
                                                                            nullptr, &ws_bytes),
               "cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize"))
    return false;
  if (!reserve_size(h, d, &reserve_bytes)) return false;
  GL_CHECK(reserve_bytes == 0 || reserve, "gpulab: cuDNN's batch norm was given no reserve space");
  std::lock_guard<std::mutex> lock(ex->mu);  // the slot's workspace
  void* ws = ws_bytes ? exec_workspace(ex, ws_bytes) : nullptr;
  // Both running stats or neither: cuDNN updates them by the momentum.
  return !declined(api.cudnnBatchNormalizationForwardTrainingEx(
                       h, mode, kOps, s.one(), s.zero(), d.x.d, x, nullptr, nullptr, d.x.d, y, d.c.d, scale, shift,
                       g.momentum, running_mean, running_mean ? running_var : nullptr, g.eps, save_mean, save_var,
                       nullptr, ws, ws_bytes, reserve, reserve_bytes),
                   "cudnnBatchNormalizationForwardTrainingEx");
}

bool batch_norm_bwd(void* exec, const NormGeom& g, bool training, const void* x, const void* gy, const void* scale,
                    const void* save_mean, const void* save_var, void* reserve, void* gx, void* gscale, void* gshift) {
  GL_CHECK(training && scale, "gpulab: cuDNN has no batch norm backward in evaluation mode (batch_norm_takes)");
  const CudnnCall call(exec);
  Exec* ex = call.ex;
  cudnnHandle_t h = call.h;
  const CudnnApi& api = cudnn();
  NormDescs d(g);
  const Scale s(DType::Float32);
  const cudnnBatchNormMode_t mode = kTrainMode;
  size_t ws_bytes = 0, reserve_bytes = 0;
  if (declined(api.cudnnGetBatchNormalizationBackwardExWorkspaceSize(h, mode, kOps, d.x.d, d.x.d, d.x.d, nullptr, d.x.d,
                                                                     d.c.d, nullptr, &ws_bytes),
               "cudnnGetBatchNormalizationBackwardExWorkspaceSize"))
    return false;
  if (!reserve_size(h, d, &reserve_bytes)) return false;
  GL_CHECK(reserve_bytes == 0 || reserve, "gpulab: cuDNN's batch norm backward was given no reserve space");
  std::lock_guard<std::mutex> lock(ex->mu);
  // cuDNN writes both parameter gradients; those not wanted go to scratch
  // after its workspace.
  const size_t ws_part = aligned(ws_bytes), scratch = (gscale && gshift) ? 0 : 2 * size_t(g.C) * sizeof(float);
  char* ws = (ws_part + scratch) ? static_cast<char*>(exec_workspace(ex, ws_part + scratch)) : nullptr;
  float* spare = scratch ? reinterpret_cast<float*>(ws + ws_part) : nullptr;
  return !declined(
      api.cudnnBatchNormalizationBackwardEx(
          h, mode, kOps, s.one(), s.zero(), s.one(), s.zero(), d.x.d, x, nullptr, nullptr, d.x.d, gy, nullptr, nullptr,
          d.x.d, gx, d.c.d, scale, nullptr, gscale ? gscale : spare, gshift ? gshift : spare + g.C, g.eps, save_mean,
          save_var, nullptr, ws_bytes ? ws : nullptr, ws_bytes, reserve, reserve_bytes),
      "cudnnBatchNormalizationBackwardEx");
}

}  // namespace gl::cuda
