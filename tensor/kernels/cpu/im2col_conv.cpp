// Convolution as im2col + gemm, per image and group: the columns
// [C/g * R * S, P * Q] of one image, then W[K/g, C/g*R*S] @ cols. The gemm is
// oneDNN's sgemm for float32 (kernels/cpu/sgemm.h) and OpenBLAS's dgemm for
// float64. The CPU keeps oneDNN's own convolutions for float32 except with one
// input channel (kernels/cpu/dnnl_conv.cpp); this path serves those, float64,
// which oneDNN lacks, and the benchmark's rival (GPULAB_CPU_CONV=im2col).
#include <omp.h>
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>
#include "tensor/core/error.h"
#include "tensor/runtime/blas_loader.h"
#include "tensor/kernels/cpu/sgemm.h"
#include "tensor/kernels/cpu/threads.h"
#include "tensor/kernels/dnn.h"

namespace gl {
namespace {

template <class T> void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, const T* b, T* c, T beta) {
  const auto A = ta ? CblasTrans : CblasNoTrans, B = tb ? CblasTrans : CblasNoTrans;
  const int lda = int(ta ? m : k), ldb = int(tb ? k : n);
  if constexpr (std::is_same_v<T, float>) cpu::sgemm(ta, tb, m, n, k, 1.f, a, lda, b, ldb, beta, c, n);
  else blas::api().dgemm(CblasRowMajor, A, B, int(m), int(n), int(k), 1.0, a, lda, b, ldb, beta, c, int(n));
}

// cols[(c, r, s), (p, q)] = x[c, p*sh - ph + r*dh, q*sw - pw + s*dw] (0 outside).
template <class T> void im2col(const ConvGeom& g, const T* x, int64_t cpg, T* cols) {
  const int64_t PQ = g.P * g.Q;
  for (int64_t c = 0; c < cpg; ++c)
    for (int64_t r = 0; r < g.R; ++r)
      for (int64_t s = 0; s < g.S; ++s) {
        T* row = cols + ((c * g.R + r) * g.S + s) * PQ;
        const T* plane = x + c * g.H * g.W;
        // Column q reads w = q * sw + off; the q whose w lies inside the row
        // are one range [q0, q1), found once per (r, s), so the copy has no
        // test per entry (it was a quarter of LeNet's training time).
        const int64_t off = s * g.dw - g.pw;
        const int64_t q0 = std::min(g.Q, off >= 0 ? int64_t(0) : (-off + g.sw - 1) / g.sw);
        const int64_t q1 = g.W - 1 - off < 0 ? q0 : std::max(q0, std::min(g.Q, (g.W - 1 - off) / g.sw + 1));
        for (int64_t p = 0; p < g.P; ++p) {
          const int64_t h = p * g.sh - g.ph + r * g.dh;
          T* out = row + p * g.Q;
          if (h < 0 || h >= g.H) {
            std::memset(out, 0, sizeof(T) * size_t(g.Q));
            continue;
          }
          const T* src = plane + h * g.W;  // entry q reads src[q * sw + off], inside the row for q0 <= q < q1
          std::fill(out, out + q0, T(0));
          if (g.sw == 1 && q1 > q0) std::memcpy(out + q0, src + q0 + off, sizeof(T) * size_t(q1 - q0));
          else if (g.sw != 1)
            for (int64_t q = q0; q < q1; ++q) out[q] = src[q * g.sw + off];
          std::fill(out + q1, out + g.Q, T(0));
        }
      }
}

// The adjoint of im2col: adds each column entry back into gx.
template <class T> void col2im(const ConvGeom& g, const T* cols, int64_t cpg, T* gx) {
  const int64_t PQ = g.P * g.Q;
  for (int64_t c = 0; c < cpg; ++c)
    for (int64_t r = 0; r < g.R; ++r)
      for (int64_t s = 0; s < g.S; ++s) {
        const T* row = cols + ((c * g.R + r) * g.S + s) * PQ;
        T* plane = gx + c * g.H * g.W;
        for (int64_t p = 0; p < g.P; ++p) {
          const int64_t h = p * g.sh - g.ph + r * g.dh;
          if (h < 0 || h >= g.H) continue;
          for (int64_t q = 0; q < g.Q; ++q) {
            const int64_t w = q * g.sw - g.pw + s * g.dw;
            if (w >= 0 && w < g.W) plane[h * g.W + w] += row[p * g.Q + q];
          }
        }
      }
}

struct Dims {
  int64_t cpg, kpg, ckk, PQ;  // channels and filters per group, column rows, output pixels
  explicit Dims(const ConvGeom& g)
      : cpg(g.C / g.groups), kpg(g.K / g.groups), ckk(g.C / g.groups * g.R * g.S), PQ(g.P * g.Q) {}
};

// One image per thread, each with its own columns; BLAS runs single-threaded
// inside (OpenBLAS does not nest in an OpenMP region). With fewer images than
// threads the images go one after another and BLAS takes the threads.
template <class T> void fwd(const ConvGeom& g, const T* x, const T* w, const T* b, T* y) {
  const Dims d(g);
  cpu::fit_threads();        // Note [Threads that pay]
  cpu::RegionErrors errors;  // Note [Exceptions in parallel regions]
#pragma omp parallel if (g.N >= omp_get_max_threads())
  {
    std::vector<T> cols;
    const bool ok = errors.run([&] { cols.resize(size_t(d.ckk * d.PQ)); });
#pragma omp for
    for (int64_t n = 0; n < g.N; ++n)
      if (ok)
        errors.run([&] {
          for (int64_t gr = 0; gr < g.groups; ++gr) {
            im2col(g, x + (n * g.C + gr * d.cpg) * g.H * g.W, d.cpg, cols.data());
            T* out = y + (n * g.K + gr * d.kpg) * d.PQ;
            gemm(false, false, d.kpg, d.PQ, d.ckk, w + gr * d.kpg * d.ckk, cols.data(), out, T(0));
            if (b)
              for (int64_t k = 0; k < d.kpg; ++k)
                for (int64_t i = 0; i < d.PQ; ++i) out[k * d.PQ + i] += b[gr * d.kpg + k];
          }
        });
  }
  errors.rethrow();
}

template <class T> void bwd_data(const ConvGeom& g, const T* gy, const T* w, T* gx) {
  const Dims d(g);
  std::memset(gx, 0, sizeof(T) * size_t(g.N * g.C * g.H * g.W));
  cpu::fit_threads();        // Note [Threads that pay]
  cpu::RegionErrors errors;  // Note [Exceptions in parallel regions]
#pragma omp parallel if (g.N >= omp_get_max_threads())
  {
    std::vector<T> cols;
    const bool ok = errors.run([&] { cols.resize(size_t(d.ckk * d.PQ)); });
#pragma omp for
    for (int64_t n = 0; n < g.N; ++n)
      if (ok)
        errors.run([&] {
          for (int64_t gr = 0; gr < g.groups; ++gr) {
            gemm(true, false, d.ckk, d.PQ, d.kpg, w + gr * d.kpg * d.ckk, gy + (n * g.K + gr * d.kpg) * d.PQ,
                 cols.data(), T(0));
            col2im(g, cols.data(), d.cpg, gx + (n * g.C + gr * d.cpg) * g.H * g.W);
          }
        });
  }
  errors.rethrow();
}

// Each thread sums its images' weight gradients; the partial sums are added at the end.
template <class T> void bwd_weight(const ConvGeom& g, const T* x, const T* gy, T* gw, T* gb) {
  const Dims d(g);
  const size_t wn = size_t(g.K * d.ckk);
  std::memset(gw, 0, sizeof(T) * wn);
  if (gb) std::memset(gb, 0, sizeof(T) * size_t(g.K));
  cpu::fit_threads();        // Note [Threads that pay]
  cpu::RegionErrors errors;  // Note [Exceptions in parallel regions]
#pragma omp parallel if (g.N >= omp_get_max_threads())
  {
    std::vector<T> cols, acc, bacc;
    const bool ok = errors.run([&] {
      cols.resize(size_t(d.ckk * d.PQ));
      acc.assign(wn, T(0));
      bacc.assign(size_t(g.K), T(0));
    });
#pragma omp for
    for (int64_t n = 0; n < g.N; ++n)
      if (ok)
        errors.run([&] {
          for (int64_t gr = 0; gr < g.groups; ++gr) {
            im2col(g, x + (n * g.C + gr * d.cpg) * g.H * g.W, d.cpg, cols.data());
            const T* dy = gy + (n * g.K + gr * d.kpg) * d.PQ;
            gemm(false, true, d.kpg, d.ckk, d.PQ, dy, cols.data(), acc.data() + gr * d.kpg * d.ckk, T(1));
            if (gb)
              for (int64_t k = 0; k < d.kpg; ++k)
                for (int64_t i = 0; i < d.PQ; ++i) bacc[size_t(gr * d.kpg + k)] += dy[k * d.PQ + i];
          }
        });
#pragma omp critical
    if (ok) {
      for (size_t i = 0; i < wn; ++i) gw[i] += acc[i];
      if (gb)
        for (int64_t k = 0; k < g.K; ++k) gb[k] += bacc[size_t(k)];
    }
  }
  errors.rethrow();
}

#define GL_IM2COL_DISPATCH(call) \
  switch (g.dtype) { \
    case DType::Float32: { \
      using T = float; \
      call; \
      break; \
    } \
    case DType::Float64: { \
      using T = double; \
      call; \
      break; \
    } \
    default: throw RuntimeError("gpulab: im2col convolution: float32 and float64 only"); \
  }

void k_fwd(void*, const ConvGeom& g, const void* x, const void* w, const void* b, void* y) {
  GL_IM2COL_DISPATCH(
      fwd<T>(g, static_cast<const T*>(x), static_cast<const T*>(w), static_cast<const T*>(b), static_cast<T*>(y)));
}
void k_bwd_data(void*, const ConvGeom& g, const void* gy, const void* w, void* gx) {
  GL_IM2COL_DISPATCH(bwd_data<T>(g, static_cast<const T*>(gy), static_cast<const T*>(w), static_cast<T*>(gx)));
}
void k_bwd_weight(void*, const ConvGeom& g, const void* x, const void* gy, void* gw, void* gb) {
  GL_IM2COL_DISPATCH(
      bwd_weight<T>(g, static_cast<const T*>(x), static_cast<const T*>(gy), static_cast<T*>(gw), static_cast<T*>(gb)));
}

}  // namespace

const DnnKernels& im2col_dnn_kernels() {
  // Pooling has no im2col form: the host's pooling is always oneDNN's.
  static const DnnKernels k{k_fwd,
                            k_bwd_data,
                            k_bwd_weight,
                            cpu_dnn_kernels().pool_workspace,
                            cpu_dnn_kernels().pool_fwd,
                            cpu_dnn_kernels().pool_bwd,
                            cpu_dnn_kernels().batch_norm_fwd,
                            cpu_dnn_kernels().batch_norm_bwd,
                            cpu_dnn_kernels().batch_norm_reserve,
                            cpu_dnn_kernels().batch_norm_takes,
                            cpu_dnn_kernels().batch_norm_updates_running};
  return k;
}

}  // namespace gl
