// Half and BFloat16 storage types usable on host and device.
// Note [Reduced-precision math]: arithmetic on float16/bfloat16 happens in
// float; these types only convert (round-to-nearest-even) at load and store.
#pragma once
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define GL_HD __host__ __device__
#else
#define GL_HD
#endif

namespace gl {

GL_HD inline uint32_t float_bits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
#endif
}
GL_HD inline float bits_float(uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, 4);
  return f;
#endif
}

struct Half {
  uint16_t x = 0;
  Half() = default;
  GL_HD Half(float f) : x(from_float(f)) {}
  GL_HD operator float() const { return to_float(x); }

  GL_HD static uint16_t from_float(float f) {
    uint32_t u = float_bits(f);
    uint32_t sign = (u >> 16) & 0x8000u;
    uint32_t a = u & 0x7fffffffu;
    if (a >= 0x7f800000u) return uint16_t(sign | (a > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if (a >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // overflow -> inf
    if (a < 0x38800000u) {                                  // subnormal or zero
      if (a < 0x33000000u) return uint16_t(sign);
      uint32_t m = (a & 0x7fffffu) | 0x800000u;
      int shift = 126 - int(a >> 23);  // value = m * 2^(e-150); half subnormal unit 2^-24
      uint32_t r = m >> shift;
      uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
      if (rem > half || (rem == half && (r & 1u))) ++r;
      return uint16_t(sign | r);
    }
    uint32_t r = ((a - 0x38000000u) >> 13);
    uint32_t rem = a & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) ++r;
    return uint16_t(sign | r);
  }
  GL_HD static float to_float(uint16_t h) {
    uint32_t sign = uint32_t(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ffu;
    if (e == 0) {
      if (m == 0) return bits_float(sign);
      float v = float(m) * (1.0f / 16777216.0f);  // m * 2^-24
      return sign ? -v : v;
    }
    if (e == 31) return bits_float(sign | 0x7f800000u | (m << 13));
    return bits_float(sign | ((e + 112) << 23) | (m << 13));
  }
};

struct BFloat16 {
  uint16_t x = 0;
  BFloat16() = default;
  GL_HD BFloat16(float f) : x(from_float(f)) {}
  GL_HD operator float() const { return bits_float(uint32_t(x) << 16); }
  GL_HD static uint16_t from_float(float f) {
    uint32_t u = float_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x40u);  // quiet NaN
    u += 0x7fffu + ((u >> 16) & 1u);
    return uint16_t(u >> 16);
  }
};

}  // namespace gl
