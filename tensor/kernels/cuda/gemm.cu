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
#include "tensor/kernels/cuda/launch.cuh"
#include "tensor/runtime/cuda_api.h"

namespace gl::cuda {

namespace {

[[noreturn]] void throw_cublas(cublasStatus_t st, const char* call) {
  std::string msg = cat("CUDA error: ", cublasGetStatusString(st), " when calling `", call, "`");
  if (st == CUBLAS_STATUS_ALLOC_FAILED) throw OutOfMemoryError(msg);  // cuBLAS's own workspace
  throw RuntimeError(msg);
}

#define GL_CUBLAS(call)                                              \
  do {                                                               \
    cublasStatus_t st_ = (call);                                     \
    if (st_ != CUBLAS_STATUS_SUCCESS) [[unlikely]] throw_cublas(st_, #call); \
  } while (0)

cublasHandle_t blas_handle(Exec* ex) {
  std::lock_guard<std::mutex> g(ex->mu);
  if (!ex->blas) {
    set_device(ex->device);
    cublasHandle_t h = nullptr;
    GL_CUBLAS(cublasCreate(&h));
    cublasStatus_t st = cublasSetStream(h, ex->stream);
    if (st != CUBLAS_STATUS_SUCCESS) {
      cublasDestroy(h);
      throw_cublas(st, "cublasSetStream(handle, stream)");
    }
    ex->blas = h;
  }
  return ex->blas;
}

// ---- integer and bool: 16 x 16 tiles through shared memory ----

constexpr int kTile = 16;

template <class T>
struct IntGemm {
  const T* a;
  const T* b;
  T* c;
  int64_t m, n, k, lda, ldb, ldc, sa, sb, sc, batch;
  bool ta, tb;
  int64_t alpha, beta;  // already converted to T, as the CPU does
  bool beta_zero;
};

template <class T>
__global__ void __launch_bounds__(kTile * kTile) gemm_int_kernel(IntGemm<T> g) {
  __shared__ T As[kTile][kTile + 1];
  __shared__ T Bs[kTile][kTile + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int64_t col = int64_t(blockIdx.x) * kTile + tx;
  // Loops over row tiles and batches are uniform across the block, so the
  // barriers inside are reached by every thread.
  for (int64_t bt = blockIdx.z; bt < g.batch; bt += gridDim.z) {
    const T* A = g.a + bt * g.sa;
    const T* B = g.b + bt * g.sb;
    T* C = g.c + bt * g.sc;
    for (int64_t tile_m = blockIdx.y; tile_m * kTile < g.m; tile_m += gridDim.y) {
      const int64_t row = tile_m * kTile + ty;
      uint64_t acc = 0;  // modular arithmetic: the CPU's wrapping T accumulator, widened
      bool any = false;  // bool: OR of ANDs
      for (int64_t p0 = 0; p0 < g.k; p0 += kTile) {
        const int64_t pa = p0 + tx, pb = p0 + ty;
        As[ty][tx] = (row < g.m && pa < g.k) ? (g.ta ? A[pa * g.lda + row] : A[row * g.lda + pa]) : T(0);
        Bs[ty][tx] = (pb < g.k && col < g.n) ? (g.tb ? B[col * g.ldb + pb] : B[pb * g.ldb + col]) : T(0);
        __syncthreads();
#pragma unroll
        for (int q = 0; q < kTile; ++q) {
          if constexpr (std::is_same_v<T, bool>) any = any || (As[ty][q] && Bs[q][tx]);
          else acc += uint64_t(int64_t(As[ty][q])) * uint64_t(int64_t(Bs[q][tx]));
        }
        __syncthreads();
      }
      if (row < g.m && col < g.n) {
        T& out = C[row * g.ldc + col];
        if constexpr (std::is_same_v<T, bool>) {
          out = any;
        } else {
          uint64_t r = uint64_t(g.alpha) * acc;
          if (!g.beta_zero) r += uint64_t(g.beta) * uint64_t(int64_t(out));
          out = T(r);
        }
      }
    }
  }
}

template <class T>
void gemm_int(Exec* ex, const GemmSpec& s) {
  IntGemm<T> g;
  g.a = reinterpret_cast<const T*>(s.a);
  g.b = reinterpret_cast<const T*>(s.b);
  g.c = reinterpret_cast<T*>(s.c);
  g.m = s.m; g.n = s.n; g.k = s.k;
  g.lda = s.lda; g.ldb = s.ldb; g.ldc = s.ldc;
  g.sa = s.stride_a; g.sb = s.stride_b; g.sc = s.stride_c;
  g.batch = s.batch;
  g.ta = s.trans_a; g.tb = s.trans_b;
  if constexpr (std::is_same_v<T, bool>) {
    g.alpha = 1;
    g.beta = 0;
  } else {
    g.alpha = int64_t(T(s.alpha));
    g.beta = int64_t(T(s.beta));
  }
  g.beta_zero = s.beta == 0;
  const int64_t gx = (s.n + kTile - 1) / kTile;
  const int64_t gy = std::min<int64_t>((s.m + kTile - 1) / kTile, 65535);
  const int64_t gz = std::min<int64_t>(s.batch, 65535);
  if (gx > INT_MAX) throw RuntimeError("CUDA error: matrix too large for the integer matmul kernel");
  gemm_int_kernel<T><<<dim3(unsigned(gx), unsigned(gy), unsigned(gz)), dim3(kTile, kTile), 0, ex->stream>>>(g);
  check_launch();
}

// ---- floats: cuBLAS ----

int as_int(int64_t v, const char* what) {
  if (v < 0 || v > INT_MAX) throw RuntimeError(cat("CUDA error: matmul ", what, " (", v, ") exceeds cuBLAS's int range"));
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
  if (s.dtype == DType::Float64) {
    const double alpha = s.alpha, beta = s.beta;
    GL_CUBLAS(cublasDgemmStridedBatched(h, opb, opa, n, m, k, &alpha, reinterpret_cast<const double*>(s.b), ldb, sb,
                                        reinterpret_cast<const double*>(s.a), lda, sa, &beta,
                                        reinterpret_cast<double*>(s.c), ldc, sc, batch));
    return;
  }
  cudaDataType_t t = CUDA_R_32F;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  if (s.dtype == DType::Float16) t = CUDA_R_16F;
  else if (s.dtype == DType::BFloat16) t = CUDA_R_16BF;
  else if (s.allow_tf32 || allow_tf32()) compute = CUBLAS_COMPUTE_32F_FAST_TF32;
  const float alpha = float(s.alpha), beta = float(s.beta);
  GL_CUBLAS(cublasGemmStridedBatchedEx(h, opb, opa, n, m, k, &alpha, s.b, t, ldb, sb, s.a, t, lda, sa, &beta, s.c, t,
                                       ldc, sc, batch, compute, CUBLAS_GEMM_DEFAULT));
}

// C = beta * C when there is nothing to multiply (k == 0).
template <class T>
struct ScaleC {
  opmath_t<T> beta;
  bool zero;
  GL_HD T operator()(T c) const { return zero ? T(opmath_t<T>(0)) : T(beta * opmath_t<T>(c)); }
};

}  // namespace

void k_gemm(void* exec, const GemmSpec& s) {
  if (s.m <= 0 || s.n <= 0 || s.batch <= 0) return;
  Exec* ex = as_exec(exec);
  set_device(ex->device);
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
        l.shape[0] = s.batch; l.shape[1] = s.m; l.shape[2] = s.n;
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
