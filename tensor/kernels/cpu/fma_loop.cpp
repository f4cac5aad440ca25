// Note [Add with alpha]: the vector loops of fma_loop.h. Built for the baseline
// like sigmoid_f32.cpp: the AVX2 loops are compiled for that target alone and
// chosen at run time.
#include "tensor/kernels/cpu/fma_loop.h"
#include "tensor/kernels/cpu/isa.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define GL_FMA_AVX2 1
#endif

namespace gl::cpu {

namespace {

#ifdef GL_FMA_AVX2
__attribute__((target("avx2,fma"))) void fma_avx2(const float* a, const float* b, float al, float* o, int64_t n) {
  const __m256 v = _mm256_set1_ps(al);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(o + i, _mm256_fmadd_ps(_mm256_loadu_ps(b + i), v, _mm256_loadu_ps(a + i)));
  for (; i < n; ++i) o[i] = __builtin_fmaf(b[i], al, a[i]);  // the instruction, under this target
}

__attribute__((target("avx2,fma"))) void fma_avx2(const double* a, const double* b, double al, double* o, int64_t n) {
  const __m256d v = _mm256_set1_pd(al);
  int64_t i = 0;
  for (; i + 4 <= n; i += 4)
    _mm256_storeu_pd(o + i, _mm256_fmadd_pd(_mm256_loadu_pd(b + i), v, _mm256_loadu_pd(a + i)));
  for (; i < n; ++i) o[i] = __builtin_fma(b[i], al, a[i]);
}
#endif

template <class T> bool run(const T* a, const T* b, T al, T* o, int64_t n) {
#ifdef GL_FMA_AVX2
  if (has_avx2_fma()) {
    fma_avx2(a, b, al, o, n);
    return true;
  }
#endif
  (void)a, (void)b, (void)al, (void)o, (void)n;
  return false;
}

}  // namespace

bool fma_f32(const float* a, const float* b, float alpha, float* o, int64_t n) { return run(a, b, alpha, o, n); }
bool fma_f64(const double* a, const double* b, double alpha, double* o, int64_t n) { return run(a, b, alpha, o, n); }

}  // namespace gl::cpu
