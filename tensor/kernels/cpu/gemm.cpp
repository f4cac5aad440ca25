// CPU matrix multiply: oneDNN's sgemm for float32 (and float16/bfloat16,
// through float32), OpenBLAS for float64; integers and bool in gemm_int.cpp
// (BLAS has none). Note [Float32 products on oneDNN]: oneDNN's sgemm picks its kernels by
// the CPU's own features (AVX-512 where there is AVX-512) and was about twice
// as fast as OpenBLAS 0.3.21's on the products a learner runs (100x100, an
// MLP's 64x784 by 784x256) where OpenBLAS is held to its AVX2 kernels, as
// OPENBLAS_CORETYPE=Haswell does on machines where OpenBLAS's own choice once
// failed; both are on the same OpenMP threads (Note [One thread pool]). oneDNN
// has no double precision gemm.
#include <dnnl.h>
#include <omp.h>
#include <vector>
#include "tensor/core/error.h"
#include "tensor/runtime/blas_loader.h"
#include "tensor/kernels/cpu/gemm_int.h"
#include "tensor/kernels/cpu/sgemm.h"
#include "tensor/kernels/cpu/threads.h"
#include "tensor/kernels/functors.h"

namespace gl::cpu {

// Row-major C = alpha op(A) op(B) + beta C on oneDNN (Note [Float32 products on oneDNN]).
void sgemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda, const float* b,
           int64_t ldb, float beta, float* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  if (k == 0) {  // an empty inner dimension: C = beta C (oneDNN refuses a leading dimension of 0)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = beta == 0 ? 0.f : beta * c[i * ldc + j];
    return;
  }
  const dnnl_status_t st = dnnl_sgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  GL_CHECK(st == dnnl_success, "oneDNN sgemm failed (status ", int(st), ") for a ", m, "x", k, " by ", k, "x", n,
           " product");
}

namespace {

// Half/BFloat16: widen to float, sgemm, narrow.
template <class T> void gemm_via_float(const GemmSpec& g) {
  auto widen = [](const char* p, int64_t rows, int64_t cols, int64_t ld) {
    std::vector<float> v(size_t(rows * cols));
    const T* x = reinterpret_cast<const T*>(p);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) v[size_t(r * cols + c)] = float(x[r * ld + c]);
    return v;
  };
  for (int64_t b = 0; b < g.batch; ++b) {
    int64_t ar = g.trans_a ? g.k : g.m, ac = g.trans_a ? g.m : g.k;
    int64_t br = g.trans_b ? g.n : g.k, bc = g.trans_b ? g.k : g.n;
    auto A = widen(g.a + b * g.stride_a * int64_t(sizeof(T)), ar, ac, g.lda);
    auto B = widen(g.b + b * g.stride_b * int64_t(sizeof(T)), br, bc, g.ldb);
    T* C = reinterpret_cast<T*>(g.c) + b * g.stride_c;
    std::vector<float> Cf(size_t(g.m * g.n));
    if (g.beta != 0)
      for (int64_t i = 0; i < g.m; ++i)
        for (int64_t j = 0; j < g.n; ++j) Cf[size_t(i * g.n + j)] = float(C[i * g.ldc + j]);
    sgemm(g.trans_a, g.trans_b, g.m, g.n, g.k, float(g.alpha), A.data(), ac, B.data(), bc, float(g.beta), Cf.data(),
          g.n);
    for (int64_t i = 0; i < g.m; ++i)
      for (int64_t j = 0; j < g.n; ++j) C[i * g.ldc + j] = T(Cf[size_t(i * g.n + j)]);
  }
}

// Note [Idle workers sleep]: below this many multiply-adds (m*n*k, about a
// 160^3 product, tens of microseconds on one core) waking a sleeping worker
// and splitting the panels costs more than it saves, and a worker that is
// descheduled stalls the whole product; OpenBLAS's own cut-off (m*n*k <=
// 262144) leaves a 100x100 product threaded.
constexpr double kGemmSerialMNK = 4.2e6;

// Runs f with OpenMP (and so OpenBLAS, Note [One thread pool]) limited to the
// calling thread when the product is small; the thread count is the calling
// thread's own setting, restored after.
template <class F> void with_gemm_threads(const GemmSpec& g, F&& f) {
  fit_threads();  // Note [Threads that pay]
  const int threads = omp_get_max_threads();
  if (threads == 1 || double(g.m) * double(g.n) * double(g.k) >= kGemmSerialMNK) return f();
  omp_set_num_threads(1);
  struct Restore {
    int n;
    ~Restore() { omp_set_num_threads(n); }
  } restore{threads};
  f();
}

}  // namespace

void gemm(void*, const GemmSpec& g) {
  if (g.m == 0 || g.n == 0) return;
  const auto ta = g.trans_a ? CblasTrans : CblasNoTrans, tb = g.trans_b ? CblasTrans : CblasNoTrans;
  // BLAS wants leading dimensions >= 1 even for empty operands.
  const int lda = int(g.lda > 0 ? g.lda : 1), ldb = int(g.ldb > 0 ? g.ldb : 1), ldc = int(g.ldc > 0 ? g.ldc : 1);
  switch (g.dtype) {
    case DType::Float32:
      return with_gemm_threads(g, [&] {
        for (int64_t b = 0; b < g.batch; ++b)
          sgemm(g.trans_a, g.trans_b, g.m, g.n, g.k, float(g.alpha),
                reinterpret_cast<const float*>(g.a) + b * g.stride_a, lda,
                reinterpret_cast<const float*>(g.b) + b * g.stride_b, ldb, float(g.beta),
                reinterpret_cast<float*>(g.c) + b * g.stride_c, ldc);
      });
    case DType::Float64:
      return with_gemm_threads(g, [&] {
        for (int64_t b = 0; b < g.batch; ++b)
          blas::api().dgemm(CblasRowMajor, ta, tb, int(g.m), int(g.n), int(g.k), g.alpha,
                            reinterpret_cast<const double*>(g.a) + b * g.stride_a, lda,
                            reinterpret_cast<const double*>(g.b) + b * g.stride_b, ldb, g.beta,
                            reinterpret_cast<double*>(g.c) + b * g.stride_c, ldc);
      });
    case DType::Float16: return with_gemm_threads(g, [&] { gemm_via_float<Half>(g); });
    case DType::BFloat16: return with_gemm_threads(g, [&] { gemm_via_float<BFloat16>(g); });
    default:
      dispatch_dtype(g.dtype, [&](auto t) {
        using T = decltype(t);
        if constexpr (!is_float_v<T>) gemm_int<T>(g);
      });
  }
}

}  // namespace gl::cpu
