// Note [Vector sigmoid] (sigmoid_f32.h). Built for the baseline like
// sum_block.cpp: the AVX2 loop is compiled for that target alone and chosen at
// run time.
#include "tensor/kernels/cpu/sigmoid_f32.h"
#include "tensor/kernels/cpu/isa.h"
#include "tensor/kernels/functors.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define GL_SIGMOID_AVX2 1
#endif

namespace gl::cpu {

namespace {

// The lanes the loop leaves to the op's own math.
float sigmoid1(float x) { return UnaryF<UnaryOp::Sigmoid>{}(x); }

#ifdef GL_SIGMOID_AVX2
// exp(x) for x in [-87.3, 88.7]; other lanes are fixed by the caller.
__attribute__((target("avx2,fma"))) __m256 exp_ps(__m256 x) {
  const __m256 k = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  // r = x - k ln2, ln2 in two parts so that k * ln2_hi is exact.
  __m256 r = _mm256_fnmadd_ps(k, _mm256_set1_ps(0.693359375f), x);
  r = _mm256_fnmadd_ps(k, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
  const __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(k), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(p, _mm256_castsi256_ps(e));
}

__attribute__((target("avx2,fma"))) void sigmoid_avx2(const float* a, float* o, int64_t n) {
  const __m256 one = _mm256_set1_ps(1.0f), lo = _mm256_set1_ps(-87.0f), hi = _mm256_set1_ps(88.0f);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 x = _mm256_loadu_ps(a + i);
    const __m256 m = _mm256_sub_ps(_mm256_setzero_ps(), x);  // -x
    const __m256 y = _mm256_div_ps(one, _mm256_add_ps(one, exp_ps(_mm256_min_ps(_mm256_max_ps(m, lo), hi))));
    // Lanes outside the polynomial's range (NaN included) take the scalar
    // form, from the input as loaded (o may be a: sigmoid_).
    const int out =
        _mm256_movemask_ps(_mm256_or_ps(_mm256_cmp_ps(m, lo, _CMP_LT_OQ), _mm256_cmp_ps(m, hi, _CMP_NLE_UQ)));
    alignas(32) float in[8];
    if (out) _mm256_store_ps(in, x);
    _mm256_storeu_ps(o + i, y);
    if (out)
      for (int j = 0; j < 8; ++j)
        if (out >> j & 1) o[i + j] = sigmoid1(in[j]);
  }
  for (; i < n; ++i) o[i] = sigmoid1(a[i]);
}
#endif

}  // namespace

bool sigmoid_f32(const float* a, float* o, int64_t n) {
#ifdef GL_SIGMOID_AVX2
  if (has_avx2_fma()) {
    sigmoid_avx2(a, o, n);
    return true;
  }
#endif
  (void)a, (void)o, (void)n;
  return false;
}

}  // namespace gl::cpu
