// Matrix factorizations through LAPACK (OpenBLAS carries it; runtime/blas_loader.h):
// linalg.svdvals through gesdd (PyTorch's CPU driver), and linalg.qr as
// PyTorch computes it on the CPU, geqrf then orgqr on a
// column-major copy, so that the Householder reflectors, and hence the signs
// of Q and R, are the ones PyTorch gets. CUDA tensors are factored on the CPU
// and copied back (cuSOLVER would be the GPU's way; a small matrix, as in
// nn.init.orthogonal_, gains nothing from it).
#include <algorithm>
#include "tensor/autocast/autocast.h"
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"
#include "tensor/runtime/blas_loader.h"

namespace gl {

namespace {

void geqrf(int m, int n, float* a, int lda, float* tau, float* w, int lw, int* info) {
  blas::api().sgeqrf(&m, &n, a, &lda, tau, w, &lw, info);
}
void geqrf(int m, int n, double* a, int lda, double* tau, double* w, int lw, int* info) {
  blas::api().dgeqrf(&m, &n, a, &lda, tau, w, &lw, info);
}
void orgqr(int m, int n, int k, float* a, int lda, const float* tau, float* w, int lw, int* info) {
  blas::api().sorgqr(&m, &n, &k, a, &lda, tau, w, &lw, info);
}
void orgqr(int m, int n, int k, double* a, int lda, const double* tau, double* w, int lw, int* info) {
  blas::api().dorgqr(&m, &n, &k, a, &lda, tau, w, &lw, info);
}

// One matrix: `a` holds m x n column-major (lda = m) and is overwritten by
// geqrf's reflectors; `r` (rrows x n, column-major, zeroed) receives R, and `q`
// (m x qcols, column-major) Q, unless q is null (mode 'r').
template <class T> void qr_one(int m, int n, T* a, T* r, int rrows, T* q, int qcols) {
  const int k = std::min(m, n);
  if (k == 0) {  // no reflectors: Q is the identity (mode 'complete' of an m x 0 matrix)
    for (int i = 0; q && i < std::min(m, qcols); ++i) q[int64_t(i) * m + i] = T(1);
    return;
  }
  std::vector<T> tau(static_cast<size_t>(k));
  T query = 0;
  int info = 0;
  geqrf(m, n, a, m, tau.data(), &query, -1, &info);
  std::vector<T> work(size_t(std::max<int64_t>(1, int64_t(query))));
  geqrf(m, n, a, m, tau.data(), work.data(), int(work.size()), &info);
  GL_CHECK(info == 0, "linalg.qr: LAPACK geqrf failed with info = ", info);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= std::min(j, k - 1); ++i) r[int64_t(j) * rrows + i] = a[int64_t(j) * m + i];
  if (!q) return;
  std::copy(a, a + int64_t(m) * k, q);  // the first k columns hold the reflectors
  orgqr(m, qcols, k, q, m, tau.data(), &query, -1, &info);
  work.assign(size_t(std::max<int64_t>(1, int64_t(query))), T(0));
  orgqr(m, qcols, k, q, m, tau.data(), work.data(), int(work.size()), &info);
  GL_CHECK(info == 0, "linalg.qr: LAPACK orgqr failed with info = ", info);
}

void gesdd_n(int m, int n, float* a, float* s, float* w, int lw, int* iw, int* info) {
  float dummy = 0;
  const int one = 1;
  blas::api().sgesdd("N", &m, &n, a, &m, s, &dummy, &one, &dummy, &one, w, &lw, iw, info, 1);
}
void gesdd_n(int m, int n, double* a, double* s, double* w, int lw, int* iw, int* info) {
  double dummy = 0;
  const int one = 1;
  blas::api().dgesdd("N", &m, &n, a, &m, s, &dummy, &one, &dummy, &one, w, &lw, iw, info, 1);
}

// The singular values of one m x n column-major matrix (overwritten), descending.
template <class T> void svdvals_one(int m, int n, T* a, T* s) {
  std::vector<int> iw(size_t(8) * size_t(std::min(m, n)));
  T query = 0;
  int info = 0;
  gesdd_n(m, n, a, s, &query, -1, iw.data(), &info);
  std::vector<T> work(size_t(std::max<int64_t>(1, int64_t(query))));
  gesdd_n(m, n, a, s, work.data(), int(work.size()), iw.data(), &info);
  GL_CHECK(info == 0, "linalg.svd: LAPACK gesdd failed to converge (info = ", info, ")");
}

// A batch of column-major matrices, as the transpose of a row-major tensor of
// shape (..., cols, rows): the strides PyTorch gives linalg.qr's results.
Tensor column_major(Shape batch, int64_t rows, int64_t cols, DType dt) {
  Shape s = batch;
  s.push_back(cols);
  s.push_back(rows);
  return zeros(s, {dt, Device(Device::CPU)});
}

}  // namespace

std::pair<Tensor, Tensor> linalg_qr(const Tensor& A, const std::string& mode) {
  if (autocast::Scope ac{autocast::Op::linalg_qr, {&A}}) return linalg_qr(ac(A), mode);  // Note [Autocast]
  GL_CHECK(A.dim() >= 2, "linalg.qr: The input tensor A must have at least 2 dimensions.");
  GL_CHECK_T(NotImplementedError, is_floating(A.dtype()),
             "linalg.qr: Expected a floating point or complex tensor as input. Got ", dtype_legacy_name(A.dtype()));
  GL_CHECK_T(NotImplementedError, A.dtype() == DType::Float32 || A.dtype() == DType::Float64,
             "\"geqrf_cpu\" not implemented for '", dtype_legacy_name(A.dtype()), "'");
  GL_CHECK(mode == "reduced" || mode == "complete" || mode == "r", "qr received unrecognized mode '", mode,
           "' but expected one of 'reduced' (default), 'r', or 'complete'");
  GL_CHECK_T(NotImplementedError, !any_requires_grad({&A}),
             "gpulab: linalg.qr has no backward yet; call it under torch.no_grad() or on a detached tensor");
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  GL_CHECK(m <= INT32_MAX && n <= INT32_MAX && m * n <= INT32_MAX,
           "linalg.qr: matrix too large for LAPACK's 32-bit indices");
  const Shape batch(A.sizes().begin(), A.sizes().end() - 2);
  const int64_t nb = numel_of(batch);
  const bool want_q = mode != "r";
  const int64_t rrows = mode == "complete" ? m : k, qcols = mode == "complete" ? m : k;

  // (..., n, m) row-major is each matrix column-major, as LAPACK wants it.
  Tensor a = contiguous(transpose(to(detach(A), Device(Device::CPU), std::nullopt), -2, -1));
  if (a.is_same(A) || a.storage() == A.storage()) a = clone(a);  // geqrf overwrites it
  Tensor r = column_major(batch, rrows, n, A.dtype());
  Tensor q = want_q ? column_major(batch, m, qcols, A.dtype()) : Tensor();
  auto run = [&](auto* a0, auto* r0, auto* q0) {
    for (int64_t b = 0; b < nb; ++b)
      qr_one(int(m), int(n), a0 + b * m * n, r0 + b * rrows * n, int(rrows), want_q ? q0 + b * m * qcols : nullptr,
             int(qcols));
  };
  if (nb > 0 && m > 0) {
    if (A.dtype() == DType::Float32) run(a.data<float>(), r.data<float>(), want_q ? q.data<float>() : nullptr);
    else run(a.data<double>(), r.data<double>(), want_q ? q.data<double>() : nullptr);
  }
  r = transpose(r, -2, -1);
  q = want_q ? transpose(q, -2, -1) : zeros({0}, {A.dtype(), Device(Device::CPU)});
  return {to(q, A.device(), std::nullopt), to(r, A.device(), std::nullopt)};
}

Tensor linalg_svdvals(const Tensor& A) {
  if (autocast::Scope ac{autocast::Op::linalg_svdvals, {&A}}) return linalg_svdvals(ac(A));  // Note [Autocast]
  GL_CHECK(A.dim() >= 2, "linalg.svd: The input tensor A must have at least 2 dimensions.");
  GL_CHECK_T(NotImplementedError, is_floating(A.dtype()),
             "linalg.svd: Expected a floating point or complex tensor as input. Got ", dtype_legacy_name(A.dtype()));
  GL_CHECK_T(NotImplementedError, A.dtype() == DType::Float32 || A.dtype() == DType::Float64, "\"linalg_svd_",
             A.device().is_cpu() ? "cpu" : "cuda", "\" not implemented for '", dtype_legacy_name(A.dtype()), "'");
  GL_CHECK_T(NotImplementedError, !any_requires_grad({&A}),
             "gpulab: linalg.svdvals has no backward yet; call it under torch.no_grad() or on a detached tensor");
  const int64_t m = A.size(-2), n = A.size(-1), k = std::min(m, n);
  GL_CHECK(m <= INT32_MAX && n <= INT32_MAX && m * n <= INT32_MAX,
           "linalg.svd: matrix too large for LAPACK's 32-bit indices");
  Shape shape(A.sizes().begin(), A.sizes().end() - 2);
  const int64_t nb = numel_of(shape);
  shape.push_back(k);
  Tensor s = zeros(shape, {A.dtype(), Device(Device::CPU)});
  if (nb > 0 && k > 0) {
    // (..., n, m) row-major is each matrix column-major, as LAPACK wants it; gesdd overwrites it.
    Tensor a = clone(contiguous(transpose(to(detach(A), Device(Device::CPU), std::nullopt), -2, -1)));
    auto run = [&](auto* a0, auto* s0) {
      for (int64_t b = 0; b < nb; ++b) svdvals_one(int(m), int(n), a0 + b * m * n, s0 + b * k);
    };
    if (A.dtype() == DType::Float32) run(a.data<float>(), s.data<float>());
    else run(a.data<double>(), s.data<double>());
  }
  return to(s, A.device(), std::nullopt);
}

}  // namespace gl
