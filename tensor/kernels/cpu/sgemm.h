// Row-major float32 C = alpha op(A) op(B) + beta C on oneDNN's sgemm (Note
// [Float32 products on oneDNN], kernels/cpu/gemm.cpp): the products and the
// im2col convolutions share it.
#pragma once
#include <cstdint>

namespace gl::cpu {

void sgemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda, const float* b,
           int64_t ldb, float beta, float* c, int64_t ldc);

}  // namespace gl::cpu
