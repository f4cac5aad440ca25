// Philox4x32-10 and the per-thread random fill (host-callable, so the
// generator can be checked against its published known-answer vectors).
#pragma once
#include "tensor/kernels/cuda/launch.cuh"

namespace gl::cuda {

struct Philox4 {
  uint32_t x[4];
};

// Philox4x32 with 10 rounds; counter = (lo, hi) 64-bit halves, key = 64 bits.
GL_HD inline Philox4 philox4x32_10(uint64_t ctr_lo, uint64_t ctr_hi, uint64_t key) {
  uint32_t c0 = uint32_t(ctr_lo), c1 = uint32_t(ctr_lo >> 32), c2 = uint32_t(ctr_hi), c3 = uint32_t(ctr_hi >> 32);
  uint32_t k0 = uint32_t(key), k1 = uint32_t(key >> 32);
#pragma unroll
  for (int i = 0; i < 10; ++i) {
    if (i) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    const uint32_t hi0 = mulhi32(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    const uint32_t hi1 = mulhi32(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    const uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
  }
  return Philox4{{c0, c1, c2, c3}};
}

template <class T> struct RandArgs {
  T* out = nullptr;
  int64_t n = 0;
  uint64_t seed = 0, offset = 0;
  double a = 0, b = 1;
  int64_t base = 0;    // int range: low end
  uint64_t range = 0;  // int range: b - a
  bool wide = false;   // int range needs 64-bit draws
  bool vec = false;    // out aligned for one vector store per group
};

// Elements drawn from one Philox call.
template <class T, RandomKind K> GL_HD constexpr int random_group(bool wide) {
  if constexpr (K == RandomKind::IntRange) return wide ? 2 : 4;
  else return std::is_same_v<T, double> ? 2 : 4;
}

template <class T> constexpr int uniform_digits() {
  if constexpr (std::is_same_v<T, Half>) return 11;
  else if constexpr (std::is_same_v<T, BFloat16>) return 8;
  else return 24;
}

// 53 random bits of two words as a double in [0, 1).
GL_HD inline double uniform53(uint32_t hi, uint32_t lo) {
  const uint64_t u = ((uint64_t(hi) << 32) | lo) & ((uint64_t(1) << 53) - 1);
  return double(u) * (1.0 / 9007199254740992.0);
}
// 24 random bits of one word as a float in [0, 1).
GL_HD inline float uniform24(uint32_t w) { return float(w >> 8) * (1.0f / 16777216.0f); }

template <class T, RandomKind K> GL_HD void random_body(Grid g, const RandArgs<T>& p) {
  using M = opmath_t<T>;
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  const int E = random_group<T, K>(p.wide);
  for (int64_t grp = g.tid; grp * E < p.n; grp += g.nthreads) {
    const Philox4 w = philox4x32_10(uint64_t(grp), p.offset, p.seed);
    T vals[4];
    if constexpr (K == RandomKind::Uniform) {
      if constexpr (std::is_same_v<T, double>) {
        vals[0] = uniform53(w.x[0], w.x[1]) * (p.b - p.a) + p.a;
        vals[1] = uniform53(w.x[2], w.x[3]) * (p.b - p.a) + p.a;
      } else {
        constexpr int D = uniform_digits<T>();
        const M lo = M(p.a), span = M(p.b) - M(p.a);
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          const M u = M(float(w.x[j] & ((1u << D) - 1)) / float(1u << D));
          // u < 1, but u * span + lo can round up to b (half: [2, 4) gives 4
          // once in 2048 draws); b becomes a, as in PyTorch's uniform kernel.
          const T v = T(u * span + lo);
          vals[j] = M(v) == M(T(p.b)) ? T(p.a) : v;
        }
      }
    } else if constexpr (K == RandomKind::Normal) {
      if constexpr (std::is_same_v<T, double>) {
        const double u1 = 1.0 - uniform53(w.x[0], w.x[1]);  // (0, 1]: log is finite
        const double u2 = uniform53(w.x[2], w.x[3]);
        const double r = m::sqrt(-2.0 * m::log(u1)), th = kTwoPi * u2;
        vals[0] = r * m::cos(th) * p.b + p.a;
        vals[1] = r * m::sin(th) * p.b + p.a;
      } else {
        const float mean = float(p.a), sd = float(p.b);
#pragma unroll
        for (int q = 0; q < 2; ++q) {
          const float u1 = 1.0f - uniform24(w.x[2 * q]);
          const float u2 = uniform24(w.x[2 * q + 1]);
          const float r = m::sqrt(-2.0f * m::log(u1)), th = float(kTwoPi) * u2;
          vals[2 * q] = T(r * m::cos(th) * sd + mean);
          vals[2 * q + 1] = T(r * m::sin(th) * sd + mean);
        }
      }
    } else {
      if (p.wide) {
#pragma unroll
        for (int j = 0; j < 2; ++j) {
          const uint64_t u = (uint64_t(w.x[2 * j]) << 32) | w.x[2 * j + 1];
          vals[j] = cast_to<T>(int64_t(u % p.range + uint64_t(p.base)));
        }
      } else {
        const uint32_t range = uint32_t(p.range);
#pragma unroll
        for (int j = 0; j < 4; ++j)
          vals[j] = cast_to<T>(int64_t(uint64_t(range ? w.x[j] % range : 0u) + uint64_t(p.base)));
      }
    }
    const int64_t i0 = grp * E;
    if constexpr (K != RandomKind::IntRange) {
      constexpr int EC = random_group<T, K>(false);
      if (p.vec && i0 + EC <= p.n) {
        Vec<T, EC> v;
#pragma unroll
        for (int j = 0; j < EC; ++j) v.v[j] = vals[j];
        reinterpret_cast<Vec<T, EC>*>(p.out)[grp] = v;
        continue;
      }
    }
    for (int j = 0; j < E; ++j)
      if (i0 + j < p.n) p.out[i0 + j] = vals[j];
  }
}

}  // namespace gl::cuda
