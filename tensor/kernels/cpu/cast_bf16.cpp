// Note [Vector bfloat16 casts] (cast_bf16.h). Built for the baseline like
// sigmoid_f32.cpp: the AVX2 loops are compiled for that target alone and
// chosen at run time.
#include "tensor/kernels/cpu/cast_bf16.h"
#include "tensor/kernels/cpu/isa.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define GL_CAST_AVX2 1
#endif

namespace gl::cpu {

#ifdef GL_CAST_AVX2
namespace {

// BFloat16::from_float on eight lanes: u + 0x7fff + (bit 16 of u), the top
// half; a NaN lane (exponent all ones, mantissa not 0) keeps its top half
// with the quiet bit set.
__attribute__((target("avx2"))) void f32_to_bf16_avx2(const float* a, BFloat16* o, int64_t n) {
  const __m256i abs_mask = _mm256_set1_epi32(0x7fffffff), inf = _mm256_set1_epi32(0x7f800000);
  const __m256i bias = _mm256_set1_epi32(0x7fff), one = _mm256_set1_epi32(1), quiet = _mm256_set1_epi32(0x40);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + i));
    const __m256i rounded = _mm256_srli_epi32(
        _mm256_add_epi32(u, _mm256_add_epi32(bias, _mm256_and_si256(_mm256_srli_epi32(u, 16), one))), 16);
    const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(u, abs_mask), inf);  // signed compare: both are >= 0
    const __m256i nan_bits = _mm256_or_si256(_mm256_srli_epi32(u, 16), quiet);
    const __m256i r = _mm256_blendv_epi8(rounded, nan_bits, nan);
    // 8 x 32 bits -> 8 x 16 bits: pack within each 128-bit half, then gather the halves
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(r, r), 0xD8);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(o + i), _mm256_castsi256_si128(packed));
  }
  for (; i < n; ++i) o[i] = BFloat16(a[i]);
}

__attribute__((target("avx2"))) void bf16_to_f32_avx2(const BFloat16* a, float* o, int64_t n) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o + i), _mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
  }
  for (; i < n; ++i) o[i] = float(a[i]);
}

}  // namespace
#endif

bool cast_f32_to_bf16(const float* a, BFloat16* o, int64_t n) {
#ifdef GL_CAST_AVX2
  if (has_avx2()) {
    f32_to_bf16_avx2(a, o, n);
    return true;
  }
#endif
  (void)a, (void)o, (void)n;
  return false;
}

bool cast_bf16_to_f32(const BFloat16* a, float* o, int64_t n) {
#ifdef GL_CAST_AVX2
  if (has_avx2()) {
    bf16_to_f32_avx2(a, o, n);
    return true;
  }
#endif
  (void)a, (void)o, (void)n;
  return false;
}

}  // namespace gl::cpu
