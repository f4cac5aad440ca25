// The math of every elementwise op, written once. Compiled by g++ for the CPU
// loops (kernels/cpu) and by nvcc for the CUDA launchers (kernels/cuda).
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>
#include "tensor/core/half.h"
#include "tensor/kernels/spec.h"

namespace gl {

// Arithmetic type for a storage type (Note [Reduced-precision math]).
template <class T> struct OpMathT { using type = T; };
template <> struct OpMathT<Half> { using type = float; };
template <> struct OpMathT<BFloat16> { using type = float; };
template <class T> using opmath_t = typename OpMathT<T>::type;

template <class T> constexpr bool is_float_v =
    std::is_floating_point_v<T> || std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// Conversions between any two element types (PyTorch's static_cast rules).
template <class D, class S> GL_HD inline D cast_to(S v) {
  if constexpr (std::is_same_v<D, S>) {
    return v;
  } else if constexpr (std::is_same_v<D, bool>) {
    return opmath_t<S>(v) != opmath_t<S>(0);
  } else if constexpr (std::is_same_v<S, Half> || std::is_same_v<S, BFloat16>) {
    return cast_to<D>(float(v));
  } else if constexpr (std::is_same_v<D, Half> || std::is_same_v<D, BFloat16>) {
    return D(float(v));
  } else if constexpr (std::is_floating_point_v<S> && std::is_integral_v<D>) {
    // Through int64, wrapping like PyTorch's CPU casts; NaN and values out of
    // int64's range become INT64_MIN, as x86's cvttsd2si gives (a plain
    // int64_t(v) is undefined behaviour for them: found by tests/fuzz/fuzz_lua).
    const double d = double(v);
    return D(d >= -9223372036854775808.0 && d < 9223372036854775808.0 ? int64_t(d) : INT64_MIN);
  } else {
    return D(v);
  }
}

namespace m {
#if defined(__CUDA_ARCH__)
#define GL_M1(name, f32, f64) \
  GL_HD inline float name(float x) { return f32(x); } \
  GL_HD inline double name(double x) { return f64(x); }
#else
#define GL_M1(name, f32, f64) \
  inline float name(float x) { return std::name(x); } \
  inline double name(double x) { return std::name(x); }
#endif
GL_M1(exp, expf, ::exp)
GL_M1(log, logf, ::log)
GL_M1(log2, log2f, ::log2)
GL_M1(log1p, log1pf, ::log1p)
GL_M1(expm1, expm1f, ::expm1)
GL_M1(sqrt, sqrtf, ::sqrt)
GL_M1(sin, sinf, ::sin)
GL_M1(cos, cosf, ::cos)
GL_M1(tan, tanf, ::tan)
GL_M1(tanh, tanhf, ::tanh)
GL_M1(floor, floorf, ::floor)
GL_M1(ceil, ceilf, ::ceil)
GL_M1(trunc, truncf, ::trunc)
GL_M1(nearbyint, nearbyintf, ::nearbyint)
GL_M1(fabs, fabsf, ::fabs)
GL_M1(erf, erff, ::erf)
GL_M1(erfc, erfcf, ::erfc)
GL_M1(asin, asinf, ::asin)
GL_M1(acos, acosf, ::acos)
GL_M1(atan, atanf, ::atan)
GL_M1(sinh, sinhf, ::sinh)
GL_M1(cosh, coshf, ::cosh)
GL_M1(asinh, asinhf, ::asinh)
GL_M1(acosh, acoshf, ::acosh)
GL_M1(atanh, atanhf, ::atanh)
GL_M1(log10, log10f, ::log10)
GL_M1(exp2, exp2f, ::exp2)
#undef GL_M1
GL_HD inline float fma(float a, float b, float c) { return fmaf(a, b, c); }  // host and device
GL_HD inline double fma(double a, double b, double c) { return ::fma(a, b, c); }
#if defined(__CUDA_ARCH__)
GL_HD inline float pow(float a, float b) { return powf(a, b); }
GL_HD inline double pow(double a, double b) { return ::pow(a, b); }
GL_HD inline float fmod(float a, float b) { return fmodf(a, b); }
GL_HD inline double fmod(double a, double b) { return ::fmod(a, b); }
GL_HD inline float atan2(float a, float b) { return atan2f(a, b); }
GL_HD inline double atan2(double a, double b) { return ::atan2(a, b); }
#else
inline float pow(float a, float b) { return std::pow(a, b); }
inline double pow(double a, double b) { return std::pow(a, b); }
inline float fmod(float a, float b) { return std::fmod(a, b); }
inline double fmod(double a, double b) { return std::fmod(a, b); }
inline float atan2(float a, float b) { return std::atan2(a, b); }
inline double atan2(double a, double b) { return std::atan2(a, b); }
#endif
#if defined(__CUDA_ARCH__)
GL_HD inline float copysign(float a, float b) { return copysignf(a, b); }
GL_HD inline double copysign(double a, double b) { return ::copysign(a, b); }
#else
inline float copysign(float a, float b) { return std::copysign(a, b); }
inline double copysign(double a, double b) { return std::copysign(a, b); }
#endif
// erfinv: PyTorch computes it on the CPU with MKL's vsErfInv/vdErfInv (high
// accuracy, within an ulp), not with its own calc_erfinv, whose float32 result
// is off by up to 1e-3 near +-1. We keep calc_erfinv's first guess (Pavlis'
// rational approximation, ATen/native/Math.h) and refine it in double: Newton
// steps on erf in the centre, and on erfc(|x|) = 1 - |y| in the tails, where
// 1 - |y| is exact and erf(x) - y would cancel. float32 rounds that double,
// so it is PyTorch's value in all but near-tie cases.
GL_HD inline double erfinv(double y) {
  const double a[4] = {0.886226899, -1.645349621, 0.914624893, -0.140543331};
  const double b[4] = {-2.118377725, 1.442710462, -0.329097515, 0.012229801};
  const double c[4] = {-1.970840454, -1.624906493, 3.429567803, 1.641345311};
  const double d[2] = {3.543889200, 1.637067800};
  const double two_over_sqrt_pi = 1.1283791670955126;
  const double y_abs = fabs(y);
  if (y_abs > 1.0) return NAN;
  if (y_abs == 1.0) return copysign(double(INFINITY), y);
  if (y_abs <= 0.7) {
    const double z = y * y;
    const double num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0];
    const double dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1.0;
    double x = y * num / dem;
    for (int i = 0; i < 3; ++i) x -= (erf(x) - y) / (two_over_sqrt_pi * exp(-x * x));
    return x;
  }
  const double t = 1.0 - y_abs;  // exact: y_abs > 0.5
  const double z = sqrt(-log(t / 2.0));
  const double num = ((c[3] * z + c[2]) * z + c[1]) * z + c[0];
  const double dem = (d[1] * z + d[0]) * z + 1.0;
  double x = num / dem;
  for (int i = 0; i < 3; ++i) x += (erfc(x) - t) / (two_over_sqrt_pi * exp(-x * x));
  return copysign(x, y);
}
GL_HD inline float erfinv(float y) { return float(erfinv(double(y))); }
template <class T> GL_HD inline bool isnan_(T x) {
  if constexpr (std::is_integral_v<T>) return false;
  else return x != x;
}
// Note [Integer wrap-around]: integer +, -, * and negation wrap around as two's
// complement, as in PyTorch; they are computed in an unsigned type (at least
// 32 bits, so that narrow types do not promote to int and overflow there),
// because signed overflow is undefined in C++. Floats pass through unchanged.
template <class T> using wrap_t = std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>;
template <class T> GL_HD inline T wadd(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = wrap_t<T>;
    return T(U(a) + U(b));
  } else return T(a + b);
}
template <class T> GL_HD inline T wsub(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = wrap_t<T>;
    return T(U(a) - U(b));
  } else return T(a - b);
}
template <class T> GL_HD inline T wmul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = wrap_t<T>;
    return T(U(a) * U(b));
  } else return T(a * b);
}
// -0.0 for +0.0, as PyTorch's neg (0 - a would give +0.0).
template <class T> GL_HD inline T wneg(T a) {
  if constexpr (std::is_integral_v<T>) return wsub(T(0), a);
  else return T(-a);
}
}  // namespace m

// Which dtypes an op is instantiated for (its row's policy); the op layer
// promotes before calling.
template <UnaryOp OP> constexpr bool unary_float_only = unary_policy(OP) == UnaryPolicy::Float;

template <UnaryOp OP> struct UnaryF {
  template <class T> GL_HD auto operator()(T x) const {
    if constexpr (OP == UnaryOp::LogicalNot) return !(x != T(0));
    else if constexpr (OP == UnaryOp::IsNan) return m::isnan_(x);
    else if constexpr (OP == UnaryOp::IsInf) {
      if constexpr (std::is_integral_v<T>) return false;
      else return !m::isnan_(x) && m::isnan_(x - x);
    } else if constexpr (OP == UnaryOp::IsFinite) {
      if constexpr (std::is_integral_v<T>) return true;
      else return !m::isnan_(x - x);
    } else if constexpr (OP == UnaryOp::Neg) {
      if constexpr (std::is_same_v<T, bool>) return x;
      else return m::wneg(x);
    } else if constexpr (OP == UnaryOp::Abs) {
      if constexpr (std::is_same_v<T, bool>) return x;
      else if constexpr (std::is_integral_v<T>) return x < T(0) ? m::wneg(x) : x;
      else return x < T(0) ? T(-x) : (x == T(0) ? T(0) : x);  // abs(-0.0) is 0.0
    } else if constexpr (OP == UnaryOp::Sign) {
      if constexpr (std::is_same_v<T, bool>) return x;
      else return T((T(0) < x) - (x < T(0)));
    } else if constexpr (OP == UnaryOp::Relu) return m::isnan_(x) ? x : (x > T(0) ? x : T(0));
    else if constexpr (OP == UnaryOp::Square) return m::wmul(x, x);
    else if constexpr (std::is_integral_v<T> && unary_policy(OP) == UnaryPolicy::Rounding) return x;
    else if constexpr (OP == UnaryOp::Floor) return m::floor(x);
    else if constexpr (OP == UnaryOp::Ceil) return m::ceil(x);
    else if constexpr (OP == UnaryOp::Round) return m::nearbyint(x);  // half to even
    else if constexpr (OP == UnaryOp::Trunc) return m::trunc(x);
    else if constexpr (OP == UnaryOp::Exp) return m::exp(x);
    else if constexpr (OP == UnaryOp::Log) return m::log(x);
    else if constexpr (OP == UnaryOp::Log2) return m::log2(x);
    else if constexpr (OP == UnaryOp::Log1p) return m::log1p(x);
    else if constexpr (OP == UnaryOp::Expm1) return m::expm1(x);
    else if constexpr (OP == UnaryOp::Sqrt) return m::sqrt(x);
    else if constexpr (OP == UnaryOp::Rsqrt) return T(1) / m::sqrt(x);
    else if constexpr (OP == UnaryOp::Sin) return m::sin(x);
    else if constexpr (OP == UnaryOp::Cos) return m::cos(x);
    else if constexpr (OP == UnaryOp::Tan) return m::tan(x);
    else if constexpr (OP == UnaryOp::Tanh) return m::tanh(x);
    else if constexpr (OP == UnaryOp::Sigmoid) return T(1) / (T(1) + m::exp(-x));
    else if constexpr (OP == UnaryOp::Reciprocal) return T(1) / x;
    // erf in double, rounded: PyTorch's CPU erf is MKL's vsErf, within an ulp.
    else if constexpr (OP == UnaryOp::Erf) return T(m::erf(double(x)));
    else if constexpr (OP == UnaryOp::Erfinv) return m::erfinv(x);
    else if constexpr (OP == UnaryOp::Asin) return m::asin(x);
    else if constexpr (OP == UnaryOp::Acos) return m::acos(x);
    else if constexpr (OP == UnaryOp::Atan) return m::atan(x);
    else if constexpr (OP == UnaryOp::Sinh) return m::sinh(x);
    else if constexpr (OP == UnaryOp::Cosh) return m::cosh(x);
    else if constexpr (OP == UnaryOp::Asinh) return m::asinh(x);
    else if constexpr (OP == UnaryOp::Acosh) return m::acosh(x);
    else if constexpr (OP == UnaryOp::Atanh) return m::atanh(x);
    else if constexpr (OP == UnaryOp::Log10) return m::log10(x);
    else if constexpr (OP == UnaryOp::Exp2) return m::exp2(x);
    // PyTorch's GeluKernelImpl: x/2 (1 + erf(x / sqrt 2)) (erf as the Erf row's),
    // and its tanh form x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))); silu x / (1 + exp(-x)).
    else if constexpr (OP == UnaryOp::Gelu) return x * T(0.5) * (T(1) + T(m::erf(double(x * T(0.7071067811865476)))));
    else if constexpr (OP == UnaryOp::GeluTanh) {
      const T inner = T(0.7978845608028654) * (x + T(0.044715) * (x * x * x));
      return T(0.5) * x * (T(1) + m::tanh(inner));
    } else if constexpr (OP == UnaryOp::Silu) return x / (T(1) + m::exp(-x));
  }
};

template <BinaryOp OP> constexpr bool binary_int_ok = binary_policy(OP) != BinaryPolicy::Float;
template <BinaryOp OP> constexpr bool binary_float_ok = binary_policy(OP) != BinaryPolicy::IntOnly;

template <BinaryOp OP> struct BinaryF {
  template <class T> GL_HD auto operator()(T a, T b) const {
    if constexpr (OP == BinaryOp::Eq) return a == b;
    else if constexpr (OP == BinaryOp::Ne) return a != b;
    else if constexpr (OP == BinaryOp::Lt) return a < b;
    else if constexpr (OP == BinaryOp::Le) return a <= b;
    else if constexpr (OP == BinaryOp::Gt) return a > b;
    else if constexpr (OP == BinaryOp::Ge) return a >= b;
    else if constexpr (OP == BinaryOp::LogicalAnd) return (a != T(0)) && (b != T(0));
    else if constexpr (OP == BinaryOp::LogicalOr) return (a != T(0)) || (b != T(0));
    else if constexpr (OP == BinaryOp::LogicalXor) return (a != T(0)) != (b != T(0));
    else if constexpr (std::is_same_v<T, bool>) {
      if constexpr (OP == BinaryOp::Add || OP == BinaryOp::BitOr || OP == BinaryOp::Maximum) return bool(a || b);
      else if constexpr (OP == BinaryOp::Mul || OP == BinaryOp::BitAnd || OP == BinaryOp::Minimum) return bool(a && b);
      else return bool(a != b);
    } else if constexpr (OP == BinaryOp::Add) return m::wadd(a, b);  // Note [Integer wrap-around]
    else if constexpr (OP == BinaryOp::Sub) return m::wsub(a, b);
    else if constexpr (OP == BinaryOp::Mul) return m::wmul(a, b);
    else if constexpr (OP == BinaryOp::Maximum) return (m::isnan_(a) || a > b) ? a : b;
    else if constexpr (OP == BinaryOp::Minimum) return (m::isnan_(a) || a < b) ? a : b;
    else if constexpr (std::is_integral_v<T>) {
      constexpr bool kSigned = std::is_signed_v<T>;
      if constexpr (OP == BinaryOp::BitAnd) return T(a & b);
      else if constexpr (OP == BinaryOp::BitOr) return T(a | b);
      else if constexpr (OP == BinaryOp::BitXor) return T(a ^ b);
      // Division by zero and MIN / -1 are refused by the op layer on the
      // CPU; these guards only keep a kernel from trapping if one slips by.
      // Only a signed -1 needs a guard: an unsigned T(-1) is the type's
      // maximum (255 for uint8), an ordinary divisor.
      else if constexpr (OP == BinaryOp::Div)
        return (b == 0 || (kSigned && b == T(-1))) ? (b == 0 ? T(0) : m::wneg(a)) : T(a / b);
      else if constexpr (OP == BinaryOp::Remainder) {
        if (b == 0 || (kSigned && b == T(-1))) return T(0);
        T r = T(a % b);
        return (r != 0 && ((r < 0) != (b < 0))) ? T(r + b) : r;
      } else if constexpr (OP == BinaryOp::FloorDivide) {
        if (b == 0) return T(0);
        if (kSigned && b == T(-1)) return m::wneg(a);
        T q = T(a / b);
        return (a % b != 0 && ((a < 0) != (b < 0))) ? T(q - 1) : q;
      } else if constexpr (OP == BinaryOp::Fmod) {
        return (b == 0 || (kSigned && b == T(-1))) ? T(0) : T(a % b);  // MIN % -1 traps
      } else if constexpr (OP == BinaryOp::Pow) {
        if (b < 0) return T(a == 1 ? 1 : (a == -1 ? ((b & 1) ? -1 : 1) : 0));
        T r = 1, base = a;
        auto e = b;
        while (e) {
          if (e & 1) r = m::wmul(r, base);
          base = m::wmul(base, base);
          e = T(e >> 1);
        }
        return r;
      } else return T(0);
    } else {
      if constexpr (OP == BinaryOp::Div) return T(a / b);
      else if constexpr (OP == BinaryOp::Pow) return (b == T(2)) ? T(a * a) : m::pow(a, b);
      else if constexpr (OP == BinaryOp::Remainder) {
        T r = m::fmod(a, b);
        return (r != T(0) && ((r < T(0)) != (b < T(0)))) ? T(r + b) : r;
      } else if constexpr (OP == BinaryOp::FloorDivide) {
        // PyTorch's div_floor_floating: from fmod, so inf // x is nan, and
        // a result of zero keeps the sign of a / b.
        if (b == T(0)) return T(a / b);
        T mod = m::fmod(a, b);
        T q = T((a - mod) / b);
        if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) q = T(q - T(1));
        if (q == T(0)) return m::copysign(T(0), T(a / b));
        T fq = m::floor(q);
        return (q - fq > T(0.5)) ? T(fq + T(1)) : fq;
      } else if constexpr (OP == BinaryOp::Fmod) return m::fmod(a, b);
      else if constexpr (OP == BinaryOp::Atan2) return m::atan2(a, b);
      else return T(0);
    }
  }
};

// Note [Ternary ops] (spec.h), shared by the CPU and CUDA kernels.
template <TernaryOp OP, class T> struct TernaryF {
  using M = opmath_t<T>;
  M value;
  GL_HD T operator()(T a, T b, T c) const {
    if constexpr (OP == TernaryOp::Addcmul) {
      if constexpr (is_float_v<T>) return cast_to<T>(m::fma(value * M(b), M(c), M(a)));
      else return m::wadd(a, m::wmul(m::wmul(T(value), b), c));  // Note [Integer wrap-around]
    } else if constexpr (OP == TernaryOp::Addcdiv) {
      return cast_to<T>(M(a) + value * M(b) / M(c));
    } else {
      return lerp(M(a), M(b), M(c));
    }
  }
  GL_HD T operator()(T a, T b) const { return lerp(M(a), M(b), value); }  // lerp, a number weight
  GL_HD static T lerp(M s, M e, M w) {
    const M d = e - s;
    return cast_to<T>(m::fabs(w) < M(0.5) ? m::fma(w, d, s) : m::fma(w - M(1), d, e));
  }
};

// Calls f(std::integral_constant<UnaryOp, OP>{}) for the runtime op.
template <class F> void dispatch_unary(UnaryOp op, F&& f) {
  switch (op) {
// clang-format off
#define GL_UNARY(E, ...) case UnaryOp::E: return f(std::integral_constant<UnaryOp, UnaryOp::E>{});
#include "tensor/ops/op_rows.def"
    // clang-format on
  }
}

template <class F> void dispatch_binary(BinaryOp op, F&& f) {
  switch (op) {
// clang-format off
#define GL_BINARY(E, ...) case BinaryOp::E: return f(std::integral_constant<BinaryOp, BinaryOp::E>{});
#include "tensor/ops/op_rows.def"
    // clang-format on
  }
}

// The scalar operand of a BinarySpec, in the compute type T.
template <class T> GL_HD inline T spec_scalar(const BinarySpec& s) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>)
    return T(opmath_t<T>(s.b_f));
  else if constexpr (std::is_same_v<T, bool>) return s.b_i != 0;
  else return T(s.b_i);
}

// The scalar operand as the kernel computes with it. Measured against
// PyTorch's CPU kernels on float16 and bfloat16 (float32 and float64 cannot
// tell): mul, div and floor_divide read a number unrounded, in opmath
// (PyTorch's original_scalar_value); every other op rounds it to the tensor's
// dtype first. x * 0.37 in float16 is x * 0.37f, x + 0.37 is x + half(0.37).
template <class T> GL_HD inline opmath_t<T> spec_scalar_opmath(const BinarySpec& s) {
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    if (s.op == BinaryOp::Mul || s.op == BinaryOp::Div || s.op == BinaryOp::FloorDivide) return opmath_t<T>(s.b_f);
  }
  return opmath_t<T>(spec_scalar<T>(s));
}

}  // namespace gl
