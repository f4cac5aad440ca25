// Note [PyTorch's vector Box-Muller] (normal_f32.h). Built for the baseline
// like sigmoid_f32.cpp: the AVX2 code is compiled for that target alone and
// chosen at run time. Every fused multiply-add below is one that PyTorch's
// binary has; every multiply that is not fused is rounded on its own.
#include "tensor/kernels/cpu/normal_f32.h"
#include <initializer_list>
#include "tensor/kernels/cpu/isa.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define GL_NORMAL_AVX2 1
#endif

namespace gl::cpu {

namespace {

#ifdef GL_NORMAL_AVX2
#define GL_AVX2 __attribute__((target("avx2,fma")))

GL_AVX2 __m256 c(float v) { return _mm256_set1_ps(v); }

// Cephes' logf for x in (0, 1]: x = m 2^e with m in [sqrt(1/2), sqrt(2)),
// log(m) by a degree-8 polynomial, e ln2 added in two parts.
GL_AVX2 __m256 log_ps(__m256 x) {
  const __m256 one = c(1.0f);
  x = _mm256_max_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x00800000)));  // no denormals
  __m256i e_bits = _mm256_srli_epi32(_mm256_castps_si256(x), 23);
  x = _mm256_and_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(~0x7f800000)));
  x = _mm256_or_ps(x, c(0.5f));
  e_bits = _mm256_sub_epi32(e_bits, _mm256_set1_epi32(0x7f));
  __m256 e = _mm256_add_ps(_mm256_cvtepi32_ps(e_bits), one);
  const __m256 mask = _mm256_cmp_ps(x, c(0.707106781186547524f), _CMP_LT_OS);
  const __m256 tmp = _mm256_and_ps(x, mask);
  x = _mm256_sub_ps(x, one);
  e = _mm256_sub_ps(e, _mm256_and_ps(one, mask));
  x = _mm256_add_ps(x, tmp);
  const __m256 z = _mm256_mul_ps(x, x);
  __m256 y = c(7.0376836292E-2f);
  for (float p : {-1.1514610310E-1f, 1.1676998740E-1f, -1.2420140846E-1f, 1.4249322787E-1f, -1.6668057665E-1f,
                  2.0000714765E-1f, -2.4999993993E-1f, 3.3333331174E-1f})
    y = _mm256_fmadd_ps(y, x, c(p));
  y = _mm256_mul_ps(y, x);
  y = _mm256_fmadd_ps(y, z, _mm256_mul_ps(e, c(-2.12194440e-4f)));
  y = _mm256_fnmadd_ps(z, c(0.5f), y);
  x = _mm256_add_ps(x, y);
  return _mm256_fmadd_ps(e, c(0.693359375f), x);
}

// Cephes' sinf and cosf together: x reduced by multiples of pi/4 (pi/4 in
// three parts), then one polynomial for sin and one for cos on [-pi/4, pi/4].
GL_AVX2 void sincos_ps(__m256 x, __m256* s, __m256* co) {
  const __m256 sign_mask = _mm256_castsi256_ps(_mm256_set1_epi32(int(0x80000000u)));
  __m256 sign_sin = _mm256_and_ps(x, sign_mask);
  x = _mm256_andnot_ps(sign_mask, x);
  __m256 y = _mm256_mul_ps(x, c(1.27323954473516f));  // 4 / pi
  __m256i j = _mm256_cvttps_epi32(y);
  j = _mm256_and_si256(_mm256_add_epi32(j, _mm256_set1_epi32(1)), _mm256_set1_epi32(~1));
  y = _mm256_cvtepi32_ps(j);
  const __m256 swap_sin = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_and_si256(j, _mm256_set1_epi32(4)), 29));
  const __m256 poly_mask =
      _mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(j, _mm256_set1_epi32(2)), _mm256_setzero_si256()));
  x = _mm256_fmadd_ps(y, c(-0.78515625f), x);
  x = _mm256_fmadd_ps(y, c(-2.4187564849853515625e-4f), x);
  x = _mm256_fmadd_ps(y, c(-3.77489497744594108e-8f), x);
  const __m256i jc = _mm256_andnot_si256(_mm256_sub_epi32(j, _mm256_set1_epi32(2)), _mm256_set1_epi32(4));
  const __m256 sign_cos = _mm256_castsi256_ps(_mm256_slli_epi32(jc, 29));
  sign_sin = _mm256_xor_ps(sign_sin, swap_sin);
  const __m256 z = _mm256_mul_ps(x, x);
  __m256 yc = _mm256_fmadd_ps(c(2.443315711809948E-005f), z, c(-1.388731625493765E-003f));
  yc = _mm256_fmadd_ps(yc, z, c(4.166664568298827E-002f));
  yc = _mm256_mul_ps(yc, z);
  yc = _mm256_fmsub_ps(yc, z, _mm256_mul_ps(z, c(0.5f)));
  yc = _mm256_add_ps(yc, c(1.0f));
  __m256 ys = _mm256_fmadd_ps(c(-1.9515295891E-4f), z, c(8.3321608736E-3f));
  ys = _mm256_fmadd_ps(ys, z, c(-1.6666654611E-1f));
  ys = _mm256_mul_ps(ys, z);
  ys = _mm256_fmadd_ps(ys, x, x);
  const __m256 sin_v = _mm256_blendv_ps(yc, ys, poly_mask);
  const __m256 cos_v = _mm256_blendv_ps(ys, yc, poly_mask);
  *s = _mm256_xor_ps(sin_v, sign_sin);
  *co = _mm256_xor_ps(cos_v, sign_cos);
}

GL_AVX2 void normal_fill_16_avx2(float* data, float mean, float std) {
  const __m256 u1 = _mm256_sub_ps(c(1.0f), _mm256_loadu_ps(data));  // [0, 1) -> (0, 1] for log
  const __m256 u2 = _mm256_loadu_ps(data + 8);
  const __m256 radius = _mm256_sqrt_ps(_mm256_mul_ps(c(-2.0f), log_ps(u1)));
  const __m256 theta = _mm256_mul_ps(c(float(2.0f * 3.14159265358979323846)), u2);
  __m256 sin_t, cos_t;
  sincos_ps(theta, &sin_t, &cos_t);
  _mm256_storeu_ps(data, _mm256_fmadd_ps(_mm256_mul_ps(radius, cos_t), c(std), c(mean)));
  _mm256_storeu_ps(data + 8, _mm256_fmadd_ps(_mm256_mul_ps(radius, sin_t), c(std), c(mean)));
}
#endif

}  // namespace

bool normal_fill_16_f32(float* data, float mean, float std) {
#ifdef GL_NORMAL_AVX2
  if (has_avx2_fma()) {
    normal_fill_16_avx2(data, mean, std);
    return true;
  }
#endif
  (void)data, (void)mean, (void)std;
  return false;
}

}  // namespace gl::cpu
