// torch.linalg.solve, inv and det through an LU factorization with partial
// pivoting (LAPACK's getrf, then getrs), as PyTorch computes them on the CPU:
// inv(A) solves A X = I, det(A) is the product of U's diagonal with the
// pivots' sign. Float32 and float64; CUDA tensors are factored on the CPU and
// copied back, as linalg.qr (linalg.cpp) is. A singular matrix is PyTorch's
// torch._C._LinAlgError, with its words.
#include <functional>
#include <string>
#include <vector>
#include "tensor/autocast/autocast.h"
#include "tensor/autograd/derivatives.h"
#include "tensor/core/error.h"
#include "tensor/ops/linalg_extra.h"
#include "tensor/ops/ops.h"
#include "tensor/runtime/blas_loader.h"

namespace gl {

namespace {

void getrf(int n, float* a, int* ipiv, int* info) { blas::api().sgetrf(&n, &n, a, &n, ipiv, info); }
void getrf(int n, double* a, int* ipiv, int* info) { blas::api().dgetrf(&n, &n, a, &n, ipiv, info); }
void getrs(int n, int k, const float* a, const int* ipiv, float* b, int* info) {
  const char no = 'N';
  blas::api().sgetrs(&no, &n, &k, a, &n, ipiv, b, &n, info, 1);
}
void getrs(int n, int k, const double* a, const int* ipiv, double* b, int* info) {
  const char no = 'N';
  blas::api().dgetrs(&no, &n, &k, a, &n, ipiv, b, &n, info, 1);
}

// PyTorch's checks, in its order and words (fn: "linalg.inv", ...).
void check_square(const Tensor& A, const char* fn) {
  GL_CHECK(A.dim() >= 2, fn, ": The input tensor A must have at least 2 dimensions.");
  GL_CHECK(A.size(-1) == A.size(-2), fn, ": A must be batches of square matrices, but they are ", A.size(-2), " by ",
           A.size(-1), " matrices");
}
void check_float(const Tensor& A, const char* fn) {
  GL_CHECK_T(NotImplementedError, is_floating(A.dtype()), fn,
             ": Expected a floating point or complex tensor as input. Got ", dtype_legacy_name(A.dtype()));
  GL_CHECK_T(NotImplementedError, A.dtype() == DType::Float32 || A.dtype() == DType::Float64,
             "\"lu_cpu\" not implemented for '", dtype_legacy_name(A.dtype()), "'");
  GL_CHECK(A.size(-1) <= INT32_MAX && A.size(-1) * A.size(-1) <= INT32_MAX, fn,
           ": matrix too large for LAPACK's 32-bit indices");
}

// "(Batch element 3): " before a message about one matrix of a batch, as PyTorch.
std::string batch_prefix(const Tensor& A, int64_t b) { return A.dim() > 2 ? cat("(Batch element ", b, "): ") : ""; }

// The LU factors of each matrix of A (..., n, n), column-major on the CPU (the
// transpose of a row-major (..., n, n) copy), and the pivots. `singular` gets
// the first matrix's 1-based index of a zero pivot (0: none) and its batch.
struct Lu {
  Tensor lu;  // (..., n, n): matrix b at lu.data + b * n * n, column-major
  std::vector<int> pivots;
  int64_t n = 0, batch = 0, singular_batch = -1;
  int singular = 0;
};
Lu factor(const Tensor& A) {
  Lu f;
  f.n = A.size(-1);
  f.lu = contiguous(transpose(to(detach(A), Device(Device::CPU), std::nullopt), -2, -1));
  if (f.lu.storage() == A.storage()) f.lu = clone(f.lu);  // getrf overwrites it
  f.batch = f.n == 0 ? 0 : f.lu.numel() / (f.n * f.n);
  f.pivots.assign(size_t(f.batch * f.n), 0);
  auto run = [&](auto* a) {
    for (int64_t b = 0; b < f.batch; ++b) {
      int info = 0;
      getrf(int(f.n), a + b * f.n * f.n, f.pivots.data() + b * f.n, &info);
      GL_CHECK(info >= 0, "getrf: argument ", -info, " was wrong");
      if (info > 0 && f.singular == 0) f.singular = info, f.singular_batch = b;
    }
  };
  if (A.dtype() == DType::Float32) run(f.lu.data<float>());
  else run(f.lu.data<double>());
  return f;
}

// B as a batch of column vectors? PyTorch: B has one dim, or one fewer than A
// and A's leading shape.
bool vector_rhs(const Tensor& A, const Tensor& B) {
  if (B.dim() == 1) return true;
  if (B.dim() != A.dim() - 1) return false;
  for (int64_t d = 0; d < B.dim(); ++d)
    if (B.size(d) != A.size(d)) return false;
  return true;
}

// X with A X = B for matrices B (..., n, k), batch shapes broadcast;
// `singular` words the error as the caller's op.
Tensor solve_matrices(const Tensor& A0, const Tensor& B0,
                      const std::function<std::string(const Tensor&, int64_t, int)>& singular) {
  Shape ab(A0.sizes().begin(), A0.sizes().end() - 2), bb(B0.sizes().begin(), B0.sizes().end() - 2);
  Shape batch = broadcast_shapes(ab, bb);
  const int64_t n = A0.size(-1), k = B0.size(-1);
  Shape as = batch, bs = batch;
  as.insert(as.end(), {n, n});
  bs.insert(bs.end(), {n, k});
  const Tensor A = expand(A0, as);
  Lu f = factor(A);
  if (f.singular) throw LinAlgError(singular(A, f.singular_batch, f.singular));
  // each n x k right-hand side column-major: the transpose of a (..., k, n) copy
  Tensor x = contiguous(transpose(to(detach(expand(B0, bs)), Device(Device::CPU), std::nullopt), -2, -1));
  if (x.storage() == B0.storage()) x = clone(x);
  auto run = [&](auto* lu, auto* xb) {
    for (int64_t b = 0; b < f.batch && k > 0; ++b) {
      int info = 0;
      getrs(int(n), int(k), lu + b * n * n, f.pivots.data() + b * n, xb + b * n * k, &info);
      GL_CHECK(info == 0, "getrs: argument ", -info, " was wrong");
    }
  };
  if (A0.dtype() == DType::Float32) run(f.lu.data<float>(), x.data<float>());
  else run(f.lu.data<double>(), x.data<double>());
  return to(transpose(x, -2, -1), A0.device(), std::nullopt);
}

}  // namespace

Tensor linalg_solve(const Tensor& A, const Tensor& B) {
  if (autocast::Scope ac{autocast::Op::linalg_solve, {&A, &B}}) return linalg_solve(ac(A), ac(B));  // Note [Autocast]
  check_args_device(wrapper("linalg_solve_ex", {&A, &B}), {{"A", &A}, {"B", &B}});
  check_square(A, "linalg.solve");
  GL_CHECK(B.dim() >= 1, "linalg.solve: The input tensor B must have at least 2 dimensions.");
  check_float(A, "linalg.solve");
  GL_CHECK(A.dtype() == B.dtype(), "linalg.solve: Expected A and B to have the same dtype, but found A of type ",
           dtype_legacy_name(A.dtype()), " and B of type ", dtype_legacy_name(B.dtype()), " instead");
  const bool vec = vector_rhs(A, B);
  const Tensor Bm = vec ? unsqueeze(B, -1) : B;
  GL_CHECK(Bm.dim() >= 2 && Bm.size(-2) == A.size(-1),
           "linalg.solve: Incompatible shapes of A and B for the equation AX = B (", A.size(-2), "x", A.size(-1),
           " and ", Bm.dim() >= 2 ? Bm.size(-2) : 0, "x", Bm.dim() >= 2 ? Bm.size(-1) : 0, ")");
  Tensor X;
  {
    NoGradGuard ng;
    X = solve_matrices(A, Bm, [](const Tensor& Ab, int64_t b, int) {
      return cat("torch.linalg.solve: ", batch_prefix(Ab, b),
                 "The solver failed because the input matrix is singular.");
    });
    if (vec) X = squeeze(X, -1);
  }
  if (any_requires_grad({&A, &B})) {
    // derivatives.yaml: gB = solve(A^H, g); gA = -gB X^H (as columns for vectors)
    // The saved output is a detached alias: X itself would hold its own node (a
    // cycle that never frees); saves_output still guards it (Note [In-place autograd]).
    record(X, {A, B}, LinalgSolveExBackward0{A, B, detach(X), vec});
    X.grad_fn()->saves_output = true;  // the backward reads X (Note [In-place autograd])
  }
  return X;
}

Tensor linalg_inv(const Tensor& A) {
  if (autocast::Scope ac{autocast::Op::linalg_inv, {&A}}) return linalg_inv(ac(A));  // Note [Autocast]
  check_square(A, "linalg.inv");
  GL_CHECK_T(NotImplementedError, is_floating(A.dtype()),
             "linalg.inv: Expected a floating point or complex tensor as input. Got ", dtype_legacy_name(A.dtype()));
  GL_CHECK_T(NotImplementedError, A.dtype() == DType::Float32 || A.dtype() == DType::Float64,
             "linalg.inv: Low precision dtypes not supported. Got ", dtype_legacy_name(A.dtype()));
  check_float(A, "linalg.inv");
  const int64_t n = A.size(-1);
  Tensor out;
  {
    NoGradGuard ng;
    out = solve_matrices(A, eye(n, n, {A.dtype(), A.device()}), [](const Tensor& Ab, int64_t b, int i) {
      return cat("linalg.inv: ", batch_prefix(Ab, b), "The diagonal element ", i,
                 " is zero, the inversion could not be completed because the input matrix is singular.");
    });
  }
  if (any_requires_grad({&A})) {
    // derivatives.yaml: -A^{-H} g A^{-H}
    record(out, {A}, LinalgInvExBackward0{detach(out)});
    out.grad_fn()->saves_output = true;
  }
  return out;
}

Tensor linalg_det(const Tensor& A) {
  check_square(A, "linalg.det");
  check_float(A, "linalg.det");
  const int64_t n = A.size(-1);
  Shape batch(A.sizes().begin(), A.sizes().end() - 2);
  Tensor det = empty_on(batch, A.dtype(), Device(Device::CPU));
  Lu f = factor(A);
  auto run = [&](auto* lu, auto* d) {
    using T = std::remove_pointer_t<decltype(d)>;
    for (int64_t b = 0; b < numel_of(batch); ++b) {
      T p = 1;  // an empty matrix's determinant
      bool odd = false;
      for (int64_t i = 0; i < n; ++i) {
        p *= lu[b * n * n + i * n + i];
        odd = odd != (f.pivots[size_t(b * n + i)] != i + 1);
      }
      d[b] = odd ? -p : p;
    }
  };
  if (A.dtype() == DType::Float32) run(f.lu.data<float>(), det.data<float>());
  else run(f.lu.data<double>(), det.data<double>());
  det = to(det, A.device(), std::nullopt);
  if (any_requires_grad({&A})) {
    // g det A^{-T}; PyTorch also differentiates at singular matrices (through an SVD): not here
    record(det, {A}, LinalgDetBackward0{A, detach(det)});
    det.grad_fn()->saves_output = true;
  }
  return det;
}

}  // namespace gl
