// Matrix multiply. Floats go to cuBLAS with the operands swapped for its
// column-major order (gemm_args.h: the row-major trick):
// - float32: cublasGemmStridedBatchedEx with CUBLAS_COMPUTE_32F (IEEE, the
//   default) or CUBLAS_COMPUTE_32F_FAST_TF32 when TF32 is allowed;
// - float16, bfloat16: cublasGemmStridedBatchedEx, float accumulation;
// - float64: cublasDgemmStridedBatched;
// - integers and bool: a tiled kernel (no BLAS has them), with the CPU's
//   wrap-around arithmetic.
#include <cublas_v2.h>
#include <climits>
#include "tensor/kernels/cuda/gemm_args.h"
#include "tensor/kernels/cuda/gemm_int.cuh"
#include "tensor/kernels/cuda/launch.cuh"
#include "tensor/runtime/cuda/cublas_loader.h"
#include "tensor/runtime/cuda_api.h"

namespace gl::cuda {

namespace {

[[noreturn]] void throw_cublas(cublasStatus_t st, const char* call) {
  std::string msg = cat("CUDA error: ", cublas().status_string(st), " when calling `", call, "`");
  if (st == CUBLAS_STATUS_ALLOC_FAILED) throw OutOfMemoryError(msg);  // cuBLAS's own workspace
  throw RuntimeError(msg);
}

#define GL_CUBLAS(call) \
  do { \
    cublasStatus_t st_ = (call); \
    if (st_ != CUBLAS_STATUS_SUCCESS) [[unlikely]] \
      throw_cublas(st_, #call); \
  } while (0)

cublasHandle_t blas_handle(Exec* ex) {
  std::lock_guard<std::mutex> g(ex->mu);
  if (!ex->blas) {
    DeviceGuard device_guard(ex->device);
    const CublasApi& api = cublas();  // loads cuBLAS on the first matmul; throws if absent
    cublasHandle_t h = nullptr;
    GL_CUBLAS(api.create(&h));
    cublasStatus_t st = api.set_stream(h, ex->stream);
    if (st != CUBLAS_STATUS_SUCCESS) {
      api.destroy(h);
      throw_cublas(st, "cublasSetStream(handle, stream)");
    }
    // A workspace of its own, as PyTorch gives each handle (32 MiB on Hopper,
    // its CUBLAS_WORKSPACE_CONFIG default): without one cuBLAS leaves out the
    // kernels that need scratch, and a 4096^2 bf16 product ran at half speed.
    if (!ex->blas_workspace && cudaMalloc(&ex->blas_workspace, kBlasWorkspace) != cudaSuccess) {
      (void)cudaGetLastError();
      ex->blas_workspace = nullptr;  // cuBLAS then works without one
    }
    if (ex->blas_workspace) api.set_workspace(h, ex->blas_workspace, kBlasWorkspace);
    ex->blas = h;
  }
  return ex->blas;
}

// ---- integer and bool: 16 x 16 tiles through shared memory (gemm_int.cuh) ----

template <class T> __global__ void __launch_bounds__(kTile* kTile) gemm_int_kernel(IntGemm<T> g) {
  __shared__ T As[kTile][kTile + 1];
  __shared__ T Bs[kTile][kTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t col = int64_t(blockIdx.x) * kTile + tx;
  // Loops over row tiles and batches are uniform across the block, so the
  // barriers inside are reached by every thread.
  for (int64_t bt = blockIdx.z; bt < g.batch; bt += gridDim.z) {
    for (int64_t tile_m = blockIdx.y; tile_m * kTile < g.m; tile_m += gridDim.y) {
      const int64_t row = tile_m * kTile + ty;
      IntAcc acc;
      for (int64_t p0 = 0; p0 < g.k; p0 += kTile) {
        int_gemm_load(g, As, Bs, tx, ty, bt, row, col, p0);
        __syncthreads();
        int_gemm_step(As, Bs, tx, ty, acc);
        __syncthreads();
      }
      int_gemm_store(g, bt, row, col, acc);
    }
  }
}

template <class T> void gemm_int(Exec* ex, const GemmSpec& s) {
  const IntGemm<T> g = int_gemm_args<T>(s);
  const int64_t gx = (s.n + kTile - 1) / kTile;
  const int64_t gy = std::min<int64_t>((s.m + kTile - 1) / kTile, 65535);
  const int64_t gz = std::min<int64_t>(s.batch, 65535);
  if (gx > INT_MAX) throw RuntimeError("CUDA error: matrix too large for the integer matmul kernel");
  gemm_int_kernel<T><<<dim3(unsigned(gx), unsigned(gy), unsigned(gz)), dim3(kTile, kTile), 0, ex->stream>>>(g);
  check_launch();
}

// ---- floats: cuBLAS ----

int as_int(int64_t v, const char* what) {
  if (v < 0 || v > INT_MAX)
    throw RuntimeError(cat("CUDA error: matmul ", what, " (", v, ") exceeds cuBLAS's int range"));
  return int(v);
}

void gemm_blas(Exec* ex, const GemmSpec& s) {
  cublasHandle_t h = blas_handle(ex);
  const BlasArgs b = blas_args(s);
  const cublasOperation_t opb = b.trans_first ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t opa = b.trans_second ? CUBLAS_OP_T : CUBLAS_OP_N;
  const int n = as_int(b.m, "n"), m = as_int(b.n, "m"), k = as_int(b.k, "k");
  const int ldb = as_int(b.ld_first, "ldb"), lda = as_int(b.ld_second, "lda"), ldc = as_int(b.ldc, "ldc");
  const int batch = as_int(b.batch, "batch");
  const long long sb = b.stride_first, sa = b.stride_second, sc = b.stride_c;
  // One product goes through the non-batched entries, as PyTorch's mm: cuBLAS
  // picks among more kernels there than for a batch of one.
  if (batch == 1 && s.dtype == DType::Float64) {
    const double alpha = s.alpha, beta = s.beta;
    GL_CUBLAS(cublas().dgemm(h, opb, opa, n, m, k, &alpha, reinterpret_cast<const double*>(s.b), ldb,
                             reinterpret_cast<const double*>(s.a), lda, &beta, reinterpret_cast<double*>(s.c), ldc));
    return;
  }
  if (s.dtype == DType::Float64) {
    const double alpha = s.alpha, beta = s.beta;
    GL_CUBLAS(cublas().dgemm_strided_batched(h, opb, opa, n, m, k, &alpha, reinterpret_cast<const double*>(s.b), ldb,
                                             sb, reinterpret_cast<const double*>(s.a), lda, sa, &beta,
                                             reinterpret_cast<double*>(s.c), ldc, sc, batch));
    return;
  }
  cudaDataType_t t = CUDA_R_32F;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  if (s.dtype == DType::Float16) t = CUDA_R_16F;
  else if (s.dtype == DType::BFloat16) t = CUDA_R_16BF;
  else if (s.allow_tf32 || allow_tf32()) compute = CUBLAS_COMPUTE_32F_FAST_TF32;
  const float alpha = float(s.alpha), beta = float(s.beta);
  if (batch == 1) {
    GL_CUBLAS(cublas().gemm_ex(h, opb, opa, n, m, k, &alpha, s.b, t, ldb, s.a, t, lda, &beta, s.c, t, ldc, compute,
                               CUBLAS_GEMM_DEFAULT));
    return;
  }
  GL_CUBLAS(cublas().gemm_strided_batched_ex(h, opb, opa, n, m, k, &alpha, s.b, t, ldb, sb, s.a, t, lda, sa, &beta, s.c,
                                             t, ldc, sc, batch, compute, CUBLAS_GEMM_DEFAULT));
}

// C = beta * C when there is nothing to multiply (k == 0).
template <class T> struct ScaleC {
  opmath_t<T> beta;
  bool zero;
  GL_HD T operator()(T c) const { return zero ? T(opmath_t<T>(0)) : T(beta * opmath_t<T>(c)); }
};

}  // namespace

void k_gemm(void* exec, const GemmSpec& s) {
  if (s.m <= 0 || s.n <= 0 || s.batch <= 0) return;
  Exec* ex = as_exec(exec);
  DeviceGuard device_guard(ex->device);
  const bool is_float = is_floating(s.dtype);
  if (is_float && s.k == 0) {
    if (s.beta == 1) return;
    dispatch_dtype(s.dtype, [&](auto t) {
      using T = decltype(t);
      if constexpr (is_float_v<T>) {
        LoopSpec l;  // C viewed as [batch, m, n] with its strides
        l.ndim = 3;
        l.nargs = 2;
        l.numel = s.batch * s.m * s.n;
        l.shape[0] = s.batch;
        l.shape[1] = s.m;
        l.shape[2] = s.n;
        for (int a = 0; a < 2; ++a) {
          l.args[a].data = s.c;
          l.args[a].dtype = s.dtype;
          l.args[a].strides[0] = s.stride_c;
          l.args[a].strides[1] = s.ldc;
          l.args[a].strides[2] = 1;
        }
        launch_loop<1, T, T>(ex, l, ScaleC<T>{opmath_t<T>(s.beta), s.beta == 0});
      }
    });
    return;
  }
  if (is_float) return gemm_blas(ex, s);
  dispatch_dtype(s.dtype, [&](auto t) {
    using T = decltype(t);
    if constexpr (!is_float_v<T>) gemm_int<T>(ex, s);
  });
}

}  // namespace gl::cuda
