// Integer and bool products on the CPU. Integers wrap as two's complement
// (Note [Integer wrap-around]), as on CUDA (gemm_int.cuh): alpha and beta are
// first converted to T, and the sums are kept in an unsigned type at least as
// wide as T (uint32_t up to 32 bits, uint64_t for 64), whose low bits are T's.
//
// Note [Integer products by rows]: the loops read memory in order. With B
// not transposed (x @ w), a block of kRows rows of C is summed as rows of B
// scaled by A's entries (c[r][:] += a[r][p] * b[p][:]), so each row of B,
// read once from memory, serves kRows rows of C, and the inner loop over j
// is a plain vector loop. A transposed B (F.linear's x @ w.T) is first packed
// as k x n rows (k*n copies against m*n*k multiply-adds). The naive (i, j, p)
// loop read B down its columns: 219 ms for a 512x512 int64 product on one
// thread against PyTorch's 5 ms; 36 ms by rows, 8.5 ms with AVX-512 (axpy).
#include <algorithm>
#include <type_traits>
#include <vector>
#include "tensor/core/dtype.h"
#include "tensor/kernels/cpu/gemm_int.h"
#include "tensor/kernels/cpu/isa.h"
#include "tensor/kernels/cpu/threads.h"

namespace gl::cpu {
namespace {

constexpr int64_t kRows = 4;

template <class T> using acc_t = std::conditional_t<(sizeof(T) > 4), uint64_t, uint32_t>;
template <class T> acc_t<T> wide(T x) { return acc_t<T>(int64_t(x)); }

// out[j] += a * b[j], the inner loop, compiled for the baseline and again for
// AVX2 and AVX-512 (whose vpmullq multiplies 64-bit integers in vectors) and
// chosen at run time, as sum_block.cpp's loops are.
template <class T> void axpy_base(acc_t<T>* out, const T* b, acc_t<T> a, int64_t n) {
  for (int64_t j = 0; j < n; ++j) out[j] += a * wide(b[j]);
}
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
template <class T> __attribute__((target("avx2"))) void axpy_avx2(acc_t<T>* out, const T* b, acc_t<T> a, int64_t n) {
  for (int64_t j = 0; j < n; ++j) out[j] += a * wide(b[j]);
}
template <class T>
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) void axpy_avx512(acc_t<T>* out, const T* b, acc_t<T> a,
                                                                               int64_t n) {
  for (int64_t j = 0; j < n; ++j) out[j] += a * wide(b[j]);
}
#endif
template <class T> void axpy(acc_t<T>* out, const T* b, acc_t<T> a, int64_t n) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if (has_avx512dq()) return axpy_avx512(out, b, a, n);
  if (has_avx2()) return axpy_avx2(out, b, a, n);
#endif
  axpy_base(out, b, a, n);
}

template <class T> struct Product {
  using U = acc_t<T>;
  const GemmSpec& g;
  U alpha, beta;

  T a_at(const T* A, int64_t i, int64_t p) const { return g.trans_a ? A[p * g.lda + i] : A[i * g.lda + p]; }
  void store(T& c, U acc) const { c = T(alpha * acc + (g.beta != 0 ? beta * wide(c) : U(0))); }

  // Rows i0 .. i0+rows of batch b: kRows * n accumulators in scratch; B
  // (k x n, rows contiguous) is `Bk`, packed from B's transpose when trans_b.
  void rows(int64_t b, int64_t i0, int64_t rows, const T* Bk, int64_t ldbk, std::vector<U>& scratch) const {
    const T* A = reinterpret_cast<const T*>(g.a) + b * g.stride_a;
    T* C = reinterpret_cast<T*>(g.c) + b * g.stride_c;
    U* acc = scratch.data();
    std::fill(acc, acc + rows * g.n, U(0));
    for (int64_t p = 0; p < g.k; ++p) {
      const T* Bp = Bk + p * ldbk;
      for (int64_t r = 0; r < rows; ++r) {
        const U a = wide(a_at(A, i0 + r, p));
        if (a == 0) continue;
        axpy(acc + r * g.n, Bp, a, g.n);
      }
    }
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < g.n; ++j) store(C[(i0 + r) * g.ldc + j], acc[r * g.n + j]);
  }
};

void bool_product(const GemmSpec& g, int64_t b, int64_t i) {
  const bool* A = reinterpret_cast<const bool*>(g.a) + b * g.stride_a;
  const bool* B = reinterpret_cast<const bool*>(g.b) + b * g.stride_b;
  bool* C = reinterpret_cast<bool*>(g.c) + b * g.stride_c;
  for (int64_t j = 0; j < g.n; ++j) {
    bool acc = false;
    for (int64_t p = 0; p < g.k && !acc; ++p)
      acc = (g.trans_a ? A[p * g.lda + i] : A[i * g.lda + p]) && (g.trans_b ? B[j * g.ldb + p] : B[p * g.ldb + j]);
    C[i * g.ldc + j] = acc;
  }
}

}  // namespace

template <class T> void gemm_int(const GemmSpec& g) {
  if constexpr (std::is_same_v<T, bool>) {
    for (int64_t b = 0; b < g.batch; ++b)
      for (int64_t i = 0; i < g.m; ++i) bool_product(g, b, i);
  } else {
    using U = acc_t<T>;
    const Product<T> prod{g, U(int64_t(T(Scalar::trunc_int(g.alpha)))), U(int64_t(T(Scalar::trunc_int(g.beta))))};
    const int64_t blocks = (g.m + kRows - 1) / kRows;
    std::vector<T> packed(g.trans_b ? size_t(g.k * g.n) : 0);
    for (int64_t b = 0; b < g.batch; ++b) {
      const T* B = reinterpret_cast<const T*>(g.b) + b * g.stride_b;
      const T* Bk = B;
      int64_t ldbk = g.ldb;
      if (g.trans_b) {  // B[j, p] -> packed[p, j]
        for (int64_t j = 0; j < g.n; ++j)
          for (int64_t p = 0; p < g.k; ++p) packed[size_t(p * g.n + j)] = B[j * g.ldb + p];
        Bk = packed.data();
        ldbk = g.n;
      }
      // Small products stay out of OpenMP (a region costs a futex even for one thread).
      if (double(g.m) * double(g.n) * double(g.k) <= 65536) {
        std::vector<U> scratch(size_t(kRows * g.n));
        for (int64_t blk = 0; blk < blocks; ++blk)
          prod.rows(b, blk * kRows, std::min(kRows, g.m - blk * kRows), Bk, ldbk, scratch);
        continue;
      }
      fit_threads();        // Note [Threads that pay]
      RegionErrors errors;  // Note [Exceptions in parallel regions]
#pragma omp parallel
      {
        std::vector<U> scratch;
        const bool ok = errors.run([&] { scratch.resize(size_t(kRows * g.n)); });
#pragma omp for schedule(static)
        for (int64_t blk = 0; blk < blocks; ++blk)
          if (ok) prod.rows(b, blk * kRows, std::min(kRows, g.m - blk * kRows), Bk, ldbk, scratch);
      }
      errors.rethrow();
    }
  }
}

template void gemm_int<bool>(const GemmSpec&);
template void gemm_int<uint8_t>(const GemmSpec&);
template void gemm_int<int8_t>(const GemmSpec&);
template void gemm_int<int16_t>(const GemmSpec&);
template void gemm_int<int32_t>(const GemmSpec&);
template void gemm_int<int64_t>(const GemmSpec&);

}  // namespace gl::cpu
