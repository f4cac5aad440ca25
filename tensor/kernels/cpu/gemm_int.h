// Row-major integer and bool products (BLAS has none): C = alpha op(A) op(B) + beta C.
#pragma once
#include "tensor/kernels/spec.h"

namespace gl::cpu {

template <class T> void gemm_int(const GemmSpec& g);

}  // namespace gl::cpu
