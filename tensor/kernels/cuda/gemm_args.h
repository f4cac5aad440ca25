// The cuBLAS call for a row-major GemmSpec, kept apart from cuBLAS's headers
// so the host tests can check it against a column-major reference.
//
// cuBLAS is column-major: a row-major C (m x n) is a column-major C^T
// (n x m), and C^T = op(B)^T op(A)^T, so cuBLAS gets the operands swapped
// (B first), m and n swapped, and each operand's own transpose flag (the
// row-major trick, as PyTorch does).
#pragma once
#include <cstdint>
#include "tensor/kernels/spec.h"

namespace gl::cuda {

struct BlasArgs {
  bool trans_first = false, trans_second = false;  // op(B), op(A)
  int64_t m = 0, n = 0, k = 0;                     // cuBLAS's: the spec's n, m, k
  int64_t ld_first = 1, ld_second = 1, ldc = 1;    // ldb, lda, ldc
  int64_t stride_first = 0, stride_second = 0, stride_c = 0, batch = 1;
};

// cuBLAS requires ld >= the rows of the column-major view (the row-major
// columns) even where a single row, never stepped over, makes any ld valid.
inline int64_t fix_ld(int64_t ld, int64_t rows_row_major, int64_t cols_row_major) {
  if (rows_row_major <= 1 && ld < cols_row_major) ld = cols_row_major;
  return ld < 1 ? 1 : ld;
}

inline BlasArgs blas_args(const GemmSpec& s) {
  BlasArgs r;
  r.trans_first = s.trans_b;
  r.trans_second = s.trans_a;
  r.m = s.n;
  r.n = s.m;
  r.k = s.k;
  // Row-major storage shapes: A is (trans_a ? k x m : m x k), B is (trans_b ? n x k : k x n).
  r.ld_first = fix_ld(s.ldb, s.trans_b ? s.n : s.k, s.trans_b ? s.k : s.n);
  r.ld_second = fix_ld(s.lda, s.trans_a ? s.k : s.m, s.trans_a ? s.m : s.k);
  r.ldc = fix_ld(s.ldc, s.m, s.n);
  r.stride_first = s.stride_b;
  r.stride_second = s.stride_a;
  r.stride_c = s.stride_c;
  r.batch = s.batch;
  return r;
}

}  // namespace gl::cuda
