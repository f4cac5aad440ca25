// CPU random fills, drawn in PyTorch's order (see generator.h) so that
// seeded programs print the numbers PyTorch prints.
#include <cmath>
#include "tensor/core/error.h"
#include "tensor/kernels/cpu/generator.h"
#include "tensor/kernels/cpu/isa.h"
#include "tensor/kernels/cpu/normal_f32.h"
#include "tensor/kernels/functors.h"

namespace gl::cpu {

namespace {

template <class T> constexpr int digits() {
  if constexpr (std::is_same_v<T, Half>) return 11;
  else if constexpr (std::is_same_v<T, BFloat16>) return 8;
  else if constexpr (std::is_same_v<T, double>) return 53;
  else return 24;
}

template <class T> opmath_t<T> uniform01(CpuGenerator& g) {
  if constexpr (std::is_same_v<T, double>) return g.uniform_double();
  else return opmath_t<T>(float(g.random() & ((1u << digits<T>()) - 1)) / float(1u << digits<T>()));
}

template <class T> void normal_fill_16(T* data, opmath_t<T> mean, opmath_t<T> std) {
  using M = opmath_t<T>;
  for (int j = 0; j < 8; ++j) {
    const M u1 = 1 - M(data[j]);
    const M u2 = M(data[j + 8]);
    const M radius = std::sqrt(-2 * std::log(u1));
    const M theta = M(2.0f * 3.14159265358979323846 * u2);
    data[j] = T(radius * std::cos(theta) * std + mean);
    data[j + 8] = T(radius * std::sin(theta) * std + mean);
  }
}

template <class T> void normal(CpuGenerator& g, T* data, int64_t n, double mean, double std) {
  using M = opmath_t<T>;
  if (n >= 16 && !std::is_same_v<T, M>) {
    // float16/bfloat16: PyTorch's normal_fill works on one block of 16 float
    // uniforms at a time (24 random bits each), and rounds only the results;
    // a last partial block is recomputed from 16 fresh draws, ending at n.
    float buf[16];
    auto block = [&](T* out) {
      for (float& u : buf) u = uniform01<float>(g);
      if (!normal_fill_16_f32(buf, float(mean), float(std))) normal_fill_16(buf, float(mean), float(std));
      for (int k = 0; k < 16; ++k) out[k] = T(buf[k]);
    };
    for (int64_t i = 0; i + 16 <= n; i += 16) block(data + i);
    if (n % 16 != 0) block(data + n - 16);
    return;
  }
  if (n >= 16) {  // PyTorch's normal_fill: uniforms first, then Box-Muller in blocks of 16
    auto fill = [&](T* block) {
      if constexpr (std::is_same_v<T, float>)  // Note [PyTorch's vector Box-Muller]
        if (normal_fill_16_f32(block, float(mean), float(std))) return;
      normal_fill_16(block, M(mean), M(std));
    };
    for (int64_t i = 0; i < n; ++i) data[i] = T(uniform01<T>(g));
    for (int64_t i = 0; i + 16 <= n; i += 16) fill(data + i);
    if (n % 16 != 0) {
      T* tail = data + n - 16;
      for (int i = 0; i < 16; ++i) tail[i] = T(uniform01<T>(g));
      fill(tail);
    }
    return;
  }
  for (int64_t i = 0; i < n; ++i) {  // at::normal_distribution<double>, with its cached second value
    double z;
    if (g.has_next_normal) {
      z = g.next_normal;
      g.has_next_normal = false;
    } else {
      const double u1 = g.uniform_double(), u2 = g.uniform_double();
      const double r = std::sqrt(-2.0 * std::log1p(-u2));
      const double theta = 2.0 * 3.14159265358979323846 * u1;
      g.next_normal = r * std::sin(theta);
      g.has_next_normal = true;
      z = r * std::cos(theta);
    }
    data[i] = T(M(z * std + mean));
  }
}

}  // namespace

void random(void* exec, const RandomSpec& s) {
  CpuGenerator& g = static_cast<CpuExec*>(exec)->gen;
  std::lock_guard<std::mutex> lock(g.mu);
  dispatch_dtype(s.out.dtype, [&](auto t) {
    using T = decltype(t);
    T* out = reinterpret_cast<T*>(s.out.data);
    switch (s.kind) {
      case RandomKind::Uniform:
        if constexpr (is_float_v<T>) {
          using M = opmath_t<T>;
          // PyTorch draws half/bfloat16 uniforms in float (24 random bits) and
          // rounds. Its AVX2 build fuses u * (to - from) + from into one
          // rounding (Note [PyTorch's vector Box-Muller]); its scalar one does not.
          // A value that rounds up to `to` is `from` instead, as in PyTorch: the range stays [from, to).
          const M a = M(s.a), width = M(s.b) - M(s.a);
          const T from = T(s.a), to = T(s.b);
          const bool fused = has_avx2_fma();
          for (int64_t i = 0; i < s.numel; ++i) {
            const M u = uniform01<M>(g);
            const T v = T(fused ? std::fma(u, width, a) : u * width + a);
            out[i] = v == to ? from : v;
          }
          return;
        }
        throw RuntimeError("uniform_ only supports floating-point dtypes");
      case RandomKind::Normal:
        if constexpr (is_float_v<T>) return normal<T>(g, out, s.numel, s.a, s.b);
        throw RuntimeError("normal_ only supports floating-point dtypes");
      case RandomKind::IntRange: {
        // Unsigned arithmetic: [lo, hi) may span more than int64_t holds.
        const uint64_t range = uint64_t(s.hi) - uint64_t(s.lo);
        const uint64_t base = uint64_t(s.lo);
        for (int64_t i = 0; i < s.numel; ++i) {
          // PyTorch takes a 64-bit draw from 2^28 up (bounding the modulo's skew to ~5%).
          uint64_t r = range >= (uint64_t(1) << 28) ? g.random64() % range : uint64_t(g.random()) % range;
          out[i] = cast_to<T>(int64_t(r + base));
        }
        return;
      }
      case RandomKind::Bits32:
        for (int64_t i = 0; i < s.numel; ++i) out[i] = cast_to<T>(int64_t(g.random()));
        return;
      case RandomKind::Uniform4: throw RuntimeError("gpulab: grouped uniforms are drawn on a real GPU only");
    }
  });
}

void seed(void* exec, uint64_t s) { static_cast<CpuExec*>(exec)->gen.seed(s); }

}  // namespace gl::cpu
