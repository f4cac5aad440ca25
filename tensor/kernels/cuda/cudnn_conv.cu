// Convolution and pooling on a GPU by cuDNN (loaded on first use:
// runtime/cuda/cudnn_loader.h), on the slot's stream, in NCHW; its batch norm
// is in cudnn_norm.cu, the table of all three at the end. Algorithms are
// cuDNN's heuristic first choice whose workspace fits; float32 runs with FMA
// math (no TF32), so results match the CPU's within float rounding.
// Pooling: cuDNN has no dilation and only symmetric padding, so dilated or
// ceil_mode windows that need more are refused with a clear error.
#include <cudnn.h>
#include <mutex>
#include <unordered_map>
#include "tensor/core/error.h"
#include "tensor/kernels/dnn.h"
#include "tensor/kernels/cuda/cudnn_common.h"

namespace gl::cuda {
namespace {

constexpr size_t kMaxWorkspace = size_t(512) << 20;

// One handle per slot, bound to its stream, made on first use.
std::mutex g_handles_mu;
std::unordered_map<Exec*, cudnnHandle_t> g_handles;

struct ConvDescs {
  TensorDesc x, y, b;
  cudnnFilterDescriptor_t w = nullptr;
  cudnnConvolutionDescriptor_t conv = nullptr;
  explicit ConvDescs(const ConvGeom& g)
      : x(g.dtype, g.N, g.C, g.H, g.W), y(g.dtype, g.N, g.K, g.P, g.Q), b(g.dtype, 1, g.K, 1, 1) {
    const CudnnApi& api = cudnn();
    GL_CUDNN(api.cudnnCreateFilterDescriptor(&w));
    GL_CUDNN(api.cudnnSetFilter4dDescriptor(w, cudnn_data_type(g.dtype), CUDNN_TENSOR_NCHW, int(g.K),
                                            int(g.C / g.groups), int(g.R), int(g.S)));
    GL_CUDNN(api.cudnnCreateConvolutionDescriptor(&conv));
    const cudnnDataType_t compute = g.dtype == DType::Float64 ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    GL_CUDNN(api.cudnnSetConvolution2dDescriptor(conv, int(g.ph), int(g.pw), int(g.sh), int(g.sw), int(g.dh), int(g.dw),
                                                 CUDNN_CROSS_CORRELATION, compute));
    GL_CUDNN(api.cudnnSetConvolutionGroupCount(conv, int(g.groups)));
    GL_CUDNN(api.cudnnSetConvolutionMathType(conv, g.dtype == DType::Float32 ? CUDNN_FMA_MATH : CUDNN_DEFAULT_MATH));
  }
  ~ConvDescs() {
    cudnn().cudnnDestroyFilterDescriptor(w);
    cudnn().cudnnDestroyConvolutionDescriptor(conv);
  }
};

// The heuristic's first successful choice whose workspace fits.
template <class Perf, class GetAlgos, class GetSize> auto pick(GetAlgos get_algos, GetSize get_size, size_t* ws) {
  Perf perf[16];
  int n = 0;
  GL_CUDNN(get_algos(16, &n, perf));
  for (int i = 0; i < n; ++i) {
    if (perf[i].status != CUDNN_STATUS_SUCCESS) continue;
    size_t bytes = 0;
    if (get_size(perf[i].algo, &bytes) != CUDNN_STATUS_SUCCESS || bytes > kMaxWorkspace) continue;
    *ws = bytes;
    return perf[i].algo;
  }
  throw RuntimeError("CUDA error: cuDNN found no convolution algorithm for these shapes");
}

void conv_fwd(void* exec, const ConvGeom& g, const void* x, const void* w, const void* b, void* y) {
  const CudnnCall call(exec);
  Exec* ex = call.ex;
  cudnnHandle_t h = call.h;
  const CudnnApi& api = cudnn();
  ConvDescs d(g);
  size_t ws_bytes = 0;
  auto algo = pick<cudnnConvolutionFwdAlgoPerf_t>(
      [&](int req, int* n, cudnnConvolutionFwdAlgoPerf_t* p) {
        return api.cudnnGetConvolutionForwardAlgorithm_v7(h, d.x.d, d.w, d.conv, d.y.d, req, n, p);
      },
      [&](cudnnConvolutionFwdAlgo_t a, size_t* s) {
        return api.cudnnGetConvolutionForwardWorkspaceSize(h, d.x.d, d.w, d.conv, d.y.d, a, s);
      },
      &ws_bytes);
  const Scale s(g.dtype);
  std::lock_guard<std::mutex> lock(ex->mu);  // the slot's workspace
  void* ws = ws_bytes ? exec_workspace(ex, ws_bytes) : nullptr;
  GL_CUDNN(api.cudnnConvolutionForward(h, s.one(), d.x.d, x, d.w, w, d.conv, algo, ws, ws_bytes, s.zero(), d.y.d, y));
  if (b) GL_CUDNN(api.cudnnAddTensor(h, s.one(), d.b.d, b, s.one(), d.y.d, y));
}

void conv_bwd_data(void* exec, const ConvGeom& g, const void* gy, const void* w, void* gx) {
  const CudnnCall call(exec);
  Exec* ex = call.ex;
  cudnnHandle_t h = call.h;
  const CudnnApi& api = cudnn();
  ConvDescs d(g);
  size_t ws_bytes = 0;
  auto algo = pick<cudnnConvolutionBwdDataAlgoPerf_t>(
      [&](int req, int* n, cudnnConvolutionBwdDataAlgoPerf_t* p) {
        return api.cudnnGetConvolutionBackwardDataAlgorithm_v7(h, d.w, d.y.d, d.conv, d.x.d, req, n, p);
      },
      [&](cudnnConvolutionBwdDataAlgo_t a, size_t* s) {
        return api.cudnnGetConvolutionBackwardDataWorkspaceSize(h, d.w, d.y.d, d.conv, d.x.d, a, s);
      },
      &ws_bytes);
  const Scale s(g.dtype);
  std::lock_guard<std::mutex> lock(ex->mu);
  void* ws = ws_bytes ? exec_workspace(ex, ws_bytes) : nullptr;
  GL_CUDNN(
      api.cudnnConvolutionBackwardData(h, s.one(), d.w, w, d.y.d, gy, d.conv, algo, ws, ws_bytes, s.zero(), d.x.d, gx));
}

void conv_bwd_weight(void* exec, const ConvGeom& g, const void* x, const void* gy, void* gw, void* gb) {
  const CudnnCall call(exec);
  Exec* ex = call.ex;
  cudnnHandle_t h = call.h;
  const CudnnApi& api = cudnn();
  ConvDescs d(g);
  size_t ws_bytes = 0;
  auto algo = pick<cudnnConvolutionBwdFilterAlgoPerf_t>(
      [&](int req, int* n, cudnnConvolutionBwdFilterAlgoPerf_t* p) {
        return api.cudnnGetConvolutionBackwardFilterAlgorithm_v7(h, d.x.d, d.y.d, d.conv, d.w, req, n, p);
      },
      [&](cudnnConvolutionBwdFilterAlgo_t a, size_t* s) {
        return api.cudnnGetConvolutionBackwardFilterWorkspaceSize(h, d.x.d, d.y.d, d.conv, d.w, a, s);
      },
      &ws_bytes);
  const Scale s(g.dtype);
  std::lock_guard<std::mutex> lock(ex->mu);
  void* ws = ws_bytes ? exec_workspace(ex, ws_bytes) : nullptr;
  GL_CUDNN(api.cudnnConvolutionBackwardFilter(h, s.one(), d.x.d, x, d.y.d, gy, d.conv, algo, ws, ws_bytes, s.zero(),
                                              d.w, gw));
  if (gb) GL_CUDNN(api.cudnnConvolutionBackwardBias(h, s.one(), d.y.d, gy, s.zero(), d.b.d, gb));
}

// ---- pooling ----
struct PoolDesc {
  cudnnPoolingDescriptor_t d = nullptr;
  explicit PoolDesc(const PoolGeom& g) {
    GL_CHECK(g.dh == 1 && g.dw == 1,
             "gpulab: max_pool2d with dilation is not supported on a GPU (cuDNN has no dilated pooling)");
    const int64_t floor_p = (g.H + 2 * g.ph - g.kh) / g.sh + 1, floor_q = (g.W + 2 * g.pw - g.kw) / g.sw + 1;
    GL_CHECK(
        g.P == floor_p && g.Q == floor_q,
        "gpulab: pooling with ceil_mode=True whose last window passes the padding is not supported on a GPU (cuDNN)");
    const cudnnPoolingMode_t mode = g.max                 ? CUDNN_POOLING_MAX_DETERMINISTIC
                                    : g.count_include_pad ? CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING
                                                          : CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING;
    GL_CUDNN(cudnn().cudnnCreatePoolingDescriptor(&d));
    GL_CUDNN(cudnn().cudnnSetPooling2dDescriptor(d, mode, CUDNN_PROPAGATE_NAN, int(g.kh), int(g.kw), int(g.ph),
                                                 int(g.pw), int(g.sh), int(g.sw)));
  }
  ~PoolDesc() { cudnn().cudnnDestroyPoolingDescriptor(d); }
};

size_t pool_workspace(void*, const PoolGeom&) { return 0; }  // cuDNN's backward reads x and y instead

void pool_fwd(void* exec, const PoolGeom& g, const void* x, void* y, void*) {
  const CudnnCall call(exec);
  cudnnHandle_t h = call.h;
  PoolDesc p(g);
  TensorDesc xd(g.dtype, g.N, g.C, g.H, g.W), yd(g.dtype, g.N, g.C, g.P, g.Q);
  const Scale s(g.dtype);
  GL_CUDNN(cudnn().cudnnPoolingForward(h, p.d, s.one(), xd.d, x, s.zero(), yd.d, y));
}

void pool_bwd(void* exec, const PoolGeom& g, const void* x, const void* y, const void* gy, const void*, void* gx) {
  const CudnnCall call(exec);
  cudnnHandle_t h = call.h;
  PoolDesc p(g);
  TensorDesc xd(g.dtype, g.N, g.C, g.H, g.W), yd(g.dtype, g.N, g.C, g.P, g.Q);
  const Scale s(g.dtype);
  GL_CUDNN(cudnn().cudnnPoolingBackward(h, p.d, s.one(), yd.d, y, yd.d, gy, xd.d, x, s.zero(), xd.d, gx));
}

}  // namespace

[[noreturn]] void throw_cudnn(cudnnStatus_t st, const char* call) {
  std::string msg = cat("CUDA error: ", cudnn().cudnnGetErrorString(st), " when calling `", call, "`");
  if (st == CUDNN_STATUS_ALLOC_FAILED) throw OutOfMemoryError(msg);
  throw RuntimeError(msg);
}

cudnnHandle_t cudnn_handle(Exec* ex) {
  std::lock_guard<std::mutex> g(g_handles_mu);
  auto it = g_handles.find(ex);
  if (it != g_handles.end()) return it->second;
  DeviceGuard device_guard(ex->device);  // the handle is made on the slot's device
  const CudnnApi& api = cudnn();
  cudnnHandle_t h = nullptr;
  GL_CUDNN(api.cudnnCreate(&h));
  cudnnStatus_t st = api.cudnnSetStream(h, ex->stream);
  if (st != CUDNN_STATUS_SUCCESS) {
    api.cudnnDestroy(h);
    throw_cudnn(st, "cudnnSetStream(handle, stream)");
  }
  g_handles.emplace(ex, h);
  return h;
}

cudnnDataType_t cudnn_data_type(DType d) {
  switch (d) {
    case DType::Float32: return CUDNN_DATA_FLOAT;
    case DType::Float64: return CUDNN_DATA_DOUBLE;
    case DType::Float16: return CUDNN_DATA_HALF;
    case DType::BFloat16: return CUDNN_DATA_BFLOAT16;
    default: throw RuntimeError(cat("gpulab: cuDNN has no ", dtype_name(d)));
  }
}

const DnnKernels& dnn_kernels() {
  static const DnnKernels k{conv_fwd,
                            conv_bwd_data,
                            conv_bwd_weight,
                            pool_workspace,
                            pool_fwd,
                            pool_bwd,
                            batch_norm_fwd,
                            batch_norm_bwd,
                            batch_norm_reserve,
                            batch_norm_takes,
                            /*batch_norm_updates_running=*/true,
                            /*reduced_precision=*/true};
  return k;
}

void release_cudnn(Exec* ex) {
  std::lock_guard<std::mutex> g(g_handles_mu);
  auto it = g_handles.find(ex);
  if (it == g_handles.end()) return;
  cudnn().cudnnDestroy(it->second);
  g_handles.erase(it);
}

}  // namespace gl::cuda
