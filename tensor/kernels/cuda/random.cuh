// The per-thread random fill (host-callable, so the generator can be checked
// against its published known-answer vectors and PyTorch's numbers).
#pragma once
#include "tensor/kernels/cuda/launch.cuh"
#include "tensor/kernels/philox.h"

namespace gl::cuda {

template <class T> struct RandArgs {
  T* out = nullptr;
  int64_t n = 0;
  uint64_t seed = 0, offset = 0;  // offset: in 32-bit draws per thread, a multiple of 4
  int64_t threads = 1;            // the logical threads of PyTorch's launch (Note [PyTorch's CUDA draws])
  double a = 0, b = 1;
  int64_t base = 0;    // int range: low end
  uint64_t range = 0;  // int range: b - a
  bool wide = false;   // int range takes 64-bit draws
  int group = 4;       // Uniform4: elements per thread and round
};

// Note [PyTorch's CUDA draws]
// gpulab draws on a real GPU what PyTorch draws there, element for element,
// so that `torch.cuda.manual_seed(0); torch.randn(8, device='cuda')` prints
// the same numbers. PyTorch's distribution_nullary_kernel launches
// `threads` = 256 * min(ceil(n / 256), SMs * (threads per SM / 256)) threads;
// thread t seeds cuRAND's Philox with (seed, subsequence t, offset) and, on
// its j-th round, takes the four words of Philox(counter = offset / 4 + j in
// the low half, t in the high half; key = seed), turned into `unroll` values
// (4 floats, or 2 doubles or 64-bit integers) for the elements
// t + threads * (j * unroll + i). The generator's offset then moves on by
// 4 * ceil(n / (threads * unroll)). The transforms are cuRAND's:
// uniform x * 2^-32 + 2^-33 (floats) or 53 bits (doubles), Box-Muller with
// __sincosf (floats) or sincospi (doubles), an integer `draw % range + base`
// (64-bit draws once the range reaches 2^28). Uniform4 gives each draw's
// four words to four consecutive elements (thread t, round j: from
// 4 * (t + threads * j)), as PyTorch's dropout does with this launch and its
// bernoulli with a tensor p with one round and the offset moved on by 12;
// their comparisons with p run as tensor ops. Dropout's width follows the
// tensor (get_vector_size in PyTorch's Dropout.cu: 16 bytes, less where the
// address or the element count is not a multiple): 8 consecutive elements
// take two draws, 2 the first two words of one (the other two are dropped),
// and 1 is its unvectorised kernel: element t + threads * (4j + i) takes word
// i of round j. Only integer work and the
// transforms' last rounding differ between this body on the host (its unit
// tests) and on the GPU.
template <class T, RandomKind K> GL_HD constexpr int random_unroll(bool wide) {
  if constexpr (K == RandomKind::IntRange) return wide ? 2 : 4;
  else if constexpr (K == RandomKind::Uniform4) return 4;
  else return std::is_same_v<T, double> ? 2 : 4;
}

GL_HD inline float curand_uniform_f(uint32_t x) {
  constexpr float kInv = 2.3283064e-10f;  // CURAND_2POW32_INV
  return float(x) * kInv + (kInv / 2.0f);
}
GL_HD inline double curand_uniform_d(uint32_t x, uint32_t y) {
  constexpr double kInv = 1.1102230246251565e-16;  // CURAND_2POW53_INV_DOUBLE
  const uint64_t z = uint64_t(x) ^ (uint64_t(y) << (53 - 32));
  return double(z) * kInv + (kInv / 2.0);
}
// cuRAND's _curand_box_muller: two normals from two words.
GL_HD inline void curand_box_muller_f(uint32_t x, uint32_t y, float* r0, float* r1) {
  constexpr float kInv = 2.3283064e-10f, kInv2Pi = 2.3283064e-10f * 6.2831855f;
  const float u = float(x) * kInv + (kInv / 2);
  const float v = float(y) * kInv2Pi + (kInv2Pi / 2);
  const float s = sqrtf(-2.0f * logf(u));
#ifdef __CUDA_ARCH__
  __sincosf(v, r0, r1);
#else
  *r0 = sinf(v);
  *r1 = cosf(v);
#endif
  *r0 *= s;
  *r1 *= s;
}
// cuRAND's _curand_box_muller_double: two normals from four words.
GL_HD inline void curand_box_muller_d(uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, double* r0, double* r1) {
  constexpr double kInv = 1.1102230246251565e-16;
  const uint64_t zx = uint64_t(x0) ^ (uint64_t(x1) << (53 - 32));
  const double u = double(zx) * kInv + (kInv / 2.0);
  const uint64_t zy = uint64_t(y0) ^ (uint64_t(y1) << (53 - 32));
  const double v = double(zy) * (kInv * 2.0) + kInv;
  const double s = sqrt(-2.0 * log(u));
#ifdef __CUDA_ARCH__
  sincospi(v, r0, r1);
#else
  *r0 = sin(v * 3.1415926535897932);
  *r1 = cos(v * 3.1415926535897932);
#endif
  *r0 *= s;
  *r1 *= s;
}

template <class T, RandomKind K> GL_HD void random_body(Grid g, const RandArgs<T>& p) {
  using M = std::conditional_t<std::is_same_v<T, double>, double, float>;  // PyTorch's accscalar
  const int U = random_unroll<T, K>(p.wide);
  const int64_t step = p.threads * U;
  if constexpr (K == RandomKind::Uniform4) {
    // Thread t's round covers the `group` elements from group * (t + threads * j).
    const int G = p.group;
    for (int64_t t = g.tid; t < p.threads; t += g.nthreads) {
      uint64_t round = p.offset / 4;
      if (G == 1) {
        for (int64_t first = t; first < p.n; first += step, ++round) {
          const Philox4 w = philox4x32_10(round, uint64_t(t), p.seed);
          for (int j = 0; j < 4 && first + p.threads * j < p.n; ++j)
            p.out[first + p.threads * j] = T(curand_uniform_f(w.x[j]));
        }
        continue;
      }
      for (int64_t first = G * t; first < p.n; first += G * p.threads) {
        for (int d = 0; d < G; d += 4, ++round) {
          const Philox4 w = philox4x32_10(round, uint64_t(t), p.seed);
          for (int j = 0; j < 4 && j < G && first + d + j < p.n; ++j)
            p.out[first + d + j] = T(curand_uniform_f(w.x[j]));
        }
      }
    }
    return;
  }
  for (int64_t t = g.tid; t < p.threads; t += g.nthreads) {
    uint64_t round = p.offset / 4;
    for (int64_t first = t; first < p.n; first += step, ++round) {
      const Philox4 w = philox4x32_10(round, uint64_t(t), p.seed);
      T vals[4];
      if constexpr (K == RandomKind::Uniform) {
        // PyTorch's UniformFunctor: from and to in the tensor's dtype, the
        // value computed in M, then b maps back to a.
        const T from = T(p.a), to = T(p.b);
        const M span = M(T(M(to) - M(from)));
        M u[4];
        if constexpr (std::is_same_v<T, double>) {
          u[0] = curand_uniform_d(w.x[0], w.x[1]);
          u[1] = curand_uniform_d(w.x[2], w.x[3]);
        } else {
          for (int j = 0; j < 4; ++j) u[j] = curand_uniform_f(w.x[j]);
        }
        for (int j = 0; j < U; ++j) {
          const T v = T(u[j] * span + M(from));
          vals[j] = M(v) == M(to) ? from : v;
        }
      } else if constexpr (K == RandomKind::Normal) {
        M r[4];
        if constexpr (std::is_same_v<T, double>) {
          curand_box_muller_d(w.x[0], w.x[1], w.x[2], w.x[3], &r[0], &r[1]);
        } else {
          curand_box_muller_f(w.x[0], w.x[1], &r[0], &r[1]);
          curand_box_muller_f(w.x[2], w.x[3], &r[2], &r[3]);
        }
        const M mean = M(p.a), sd = M(p.b);
        for (int j = 0; j < U; ++j) vals[j] = T(r[j] * sd + mean);
      } else {
        if (p.wide) {
          for (int j = 0; j < 2; ++j) {
            const uint64_t u = (uint64_t(w.x[2 * j]) << 32) | w.x[2 * j + 1];
            vals[j] = cast_to<T>(int64_t(u % p.range + uint64_t(p.base)));
          }
        } else {
          for (int j = 0; j < 4; ++j) vals[j] = cast_to<T>(int64_t(uint64_t(w.x[j]) % p.range + uint64_t(p.base)));
        }
      }
      for (int j = 0; j < U; ++j) {
        const int64_t e = first + p.threads * j;
        if (e < p.n) p.out[e] = vals[j];
      }
    }
  }
}

// PyTorch's launch for n draws of `unroll` values a round: its thread count,
// and how far the generator's offset moves (Note [PyTorch's CUDA draws]).
struct RandomLaunch {
  int64_t threads;
  uint64_t advance;
};
inline RandomLaunch random_launch(int64_t n, int unroll, int sm_count, int max_threads_per_sm) {
  const int64_t blocks = std::min<int64_t>((n + 255) / 256, int64_t(sm_count) * (max_threads_per_sm / 256));
  const int64_t threads = blocks * 256;
  const uint64_t rounds = uint64_t((n - 1) / (threads * unroll) + 1);
  return {threads, rounds * 4};
}

}  // namespace gl::cuda
