// CPU addcmul and lerp (Note [Ternary ops] in kernels/spec.h): TernaryF over
// cpu::loop. The floating-point loops are also built for AVX2+FMA and chosen
// at run time, where fmaf is one instruction instead of a libm call; the bits
// are the same either way (Note [Add with alpha]).
#include "tensor/core/error.h"
#include "tensor/kernels/cpu/isa.h"
#include "tensor/kernels/cpu/loop.h"
#include "tensor/kernels/functors.h"

namespace gl::cpu {

namespace {

template <TernaryOp OP, class T> struct Body {
  TernaryF<OP, T> f;
  bool scalar_weight;
  void operator()(char** p, const int64_t* st, int64_t n) const {
    T* o = reinterpret_cast<T*>(p[0]);
    const T* a = reinterpret_cast<const T*>(p[1]);
    const T* b = reinterpret_cast<const T*>(p[2]);
    if (scalar_weight) {
      if constexpr (OP == TernaryOp::Lerp) {
        for (int64_t i = 0; i < n; ++i) o[i * st[0]] = f(a[i * st[1]], b[i * st[2]]);
      }
      return;
    }
    const T* c = reinterpret_cast<const T*>(p[3]);
    if (st[0] == 1 && st[1] == 1 && st[2] == 1 && st[3] == 1) {
      for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i], c[i]);
    } else {
      for (int64_t i = 0; i < n; ++i) o[i * st[0]] = f(a[i * st[1]], b[i * st[2]], c[i * st[3]]);
    }
  }
};

template <TernaryOp OP, class T> void run(const TernarySpec& s, const Body<OP, T>& body) { loop(s.loop, body); }

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
template <TernaryOp OP, class T>
__attribute__((target("avx2,fma"))) void run_fma(const TernarySpec& s, const Body<OP, T>& body) {
  loop(s.loop, [&body](char** p, const int64_t* st, int64_t n) { body(p, st, n); });
}
#endif

template <TernaryOp OP, class T> void typed(const TernarySpec& s) {
  using M = opmath_t<T>;
  const Body<OP, T> body{{is_float_v<T> ? M(s.value) : M(s.value_i)}, s.scalar_weight};
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (has_avx2_fma()) return run_fma<OP, T>(s, body);
  }
#endif
  run<OP, T>(s, body);
}

}  // namespace

void ternary(void*, const TernarySpec& s) {
  dispatch_dtype(s.compute, [&](auto t) {
    using T = decltype(t);
    if (s.op == TernaryOp::Lerp) {
      if constexpr (is_float_v<T>) return typed<TernaryOp::Lerp, T>(s);
      throw NotImplementedError(cat("\"lerp_kernel_", s.scalar_weight ? "scalar" : "tensor", "\" not implemented for '",
                                    dtype_legacy_name(s.compute), "'"));
    }
    if (s.op == TernaryOp::Addcdiv) {  // the op refuses integer inputs first
      if constexpr (is_float_v<T>) return typed<TernaryOp::Addcdiv, T>(s);
      throw NotImplementedError(cat("\"addcdiv_cpu\" not implemented for '", dtype_legacy_name(s.compute), "'"));
    }
    if constexpr (std::is_same_v<T, bool>)
      throw NotImplementedError(cat("\"addcmul_cpu_out\" not implemented for '", dtype_legacy_name(s.compute), "'"));
    else typed<TernaryOp::Addcmul, T>(s);
  });
}

}  // namespace gl::cpu
