// Integer and bool matmul (no BLAS has them): 16 x 16 tiles through shared
// memory, with the CPU's wrap-around arithmetic. Each thread's work is split
// at the kernel's barriers into __host__ __device__ phases (load a tile
// element, accumulate a tile, store), so the host tests can run a block
// phase by phase; the kernel itself is in gemm.cu.
#pragma once
#include <cstdint>
#include <type_traits>
#include "tensor/kernels/cuda/launch.cuh"
#include "tensor/kernels/spec.h"

namespace gl::cuda {

constexpr int kTile = 16;

template <class T> struct IntGemm {
  const T* a;
  const T* b;
  T* c;
  int64_t m, n, k, lda, ldb, ldc, sa, sb, sc, batch;
  bool ta, tb;
  int64_t alpha, beta;  // already converted to T, as the CPU does
  bool beta_zero;
};

// The kernel's arguments for a GemmSpec of dtype T.
template <class T> IntGemm<T> int_gemm_args(const GemmSpec& s) {
  IntGemm<T> g;
  g.a = reinterpret_cast<const T*>(s.a);
  g.b = reinterpret_cast<const T*>(s.b);
  g.c = reinterpret_cast<T*>(s.c);
  g.m = s.m;
  g.n = s.n;
  g.k = s.k;
  g.lda = s.lda;
  g.ldb = s.ldb;
  g.ldc = s.ldc;
  g.sa = s.stride_a;
  g.sb = s.stride_b;
  g.sc = s.stride_c;
  g.batch = s.batch;
  g.ta = s.trans_a;
  g.tb = s.trans_b;
  if constexpr (std::is_same_v<T, bool>) {
    g.alpha = 1;
    g.beta = 0;
  } else {
    g.alpha = int64_t(T(Scalar::trunc_int(s.alpha)));  // a plain T(double) is undefined past T's range
    g.beta = int64_t(T(Scalar::trunc_int(s.beta)));
  }
  g.beta_zero = s.beta == 0;
  return g;
}

// One thread's running sum: modular (the CPU's wrapping T accumulator,
// widened), or for bool an OR of ANDs.
struct IntAcc {
  uint64_t sum = 0;
  bool any = false;
};

// Phase 1: thread (tx, ty) loads A[row, p0 + tx] and B[p0 + ty, col] of batch bt.
template <class T> GL_HD inline void int_gemm_load(const IntGemm<T>& g, T (*As)[kTile + 1], T (*Bs)[kTile + 1], int tx,
                                                   int ty, int64_t bt, int64_t row, int64_t col, int64_t p0) {
  const T* A = g.a + bt * g.sa;
  const T* B = g.b + bt * g.sb;
  const int64_t pa = p0 + tx, pb = p0 + ty;
  As[ty][tx] = (row < g.m && pa < g.k) ? (g.ta ? A[pa * g.lda + row] : A[row * g.lda + pa]) : T(0);
  Bs[ty][tx] = (pb < g.k && col < g.n) ? (g.tb ? B[col * g.ldb + pb] : B[pb * g.ldb + col]) : T(0);
}

// Phase 2: the tile's contribution to C[row, col].
template <class T>
GL_HD inline void int_gemm_step(T (*As)[kTile + 1], T (*Bs)[kTile + 1], int tx, int ty, IntAcc& acc) {
#pragma unroll
  for (int q = 0; q < kTile; ++q) {
    if constexpr (std::is_same_v<T, bool>) acc.any = acc.any || (As[ty][q] && Bs[q][tx]);
    else acc.sum += uint64_t(int64_t(As[ty][q])) * uint64_t(int64_t(Bs[q][tx]));
  }
}

// Phase 3: C = alpha * sum + beta * C, wrapping.
template <class T>
GL_HD inline void int_gemm_store(const IntGemm<T>& g, int64_t bt, int64_t row, int64_t col, const IntAcc& acc) {
  if (row >= g.m || col >= g.n) return;
  T& out = g.c[bt * g.sc + row * g.ldc + col];
  if constexpr (std::is_same_v<T, bool>) {
    out = acc.any;
  } else {
    uint64_t r = uint64_t(g.alpha) * acc.sum;
    if (!g.beta_zero) r += uint64_t(g.beta) * uint64_t(int64_t(out));
    out = T(r);
  }
}

}  // namespace gl::cuda
