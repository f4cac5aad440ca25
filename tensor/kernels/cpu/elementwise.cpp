// CPU elementwise kernels: the functors of kernels/functors.h over cpu::loop.
#include "tensor/core/error.h"
#include "tensor/kernels/cpu/cast_bf16.h"
#include "tensor/kernels/cpu/fma_loop.h"
#include "tensor/kernels/cpu/loop.h"
#include "tensor/kernels/cpu/sigmoid_f32.h"
#include "tensor/kernels/functors.h"

namespace gl::cpu {

namespace {

template <UnaryOp OP, class T> void unary_typed(const LoopSpec& s) {
  using M = opmath_t<T>;
  using R = decltype(UnaryF<OP>{}(M{}));
  using Out = std::conditional_t<std::is_same_v<R, bool>, bool, T>;
  loop(s, [](char** p, const int64_t* st, int64_t n) {
    Out* o = reinterpret_cast<Out*>(p[0]);
    const T* a = reinterpret_cast<const T*>(p[1]);
    UnaryF<OP> f;
    if constexpr (OP == UnaryOp::Sigmoid && std::is_same_v<T, float>) {
      if (st[0] == 1 && st[1] == 1 && sigmoid_f32(a, o, n)) return;  // Note [Vector sigmoid]
    }
    if (st[0] == 1 && st[1] == 1) {
      for (int64_t i = 0; i < n; ++i) o[i] = cast_to<Out>(f(M(a[i])));
    } else {
      for (int64_t i = 0; i < n; ++i) o[i * st[0]] = cast_to<Out>(f(M(a[i * st[1]])));
    }
  });
}

template <BinaryOp OP, class T> void binary_typed(const BinarySpec& bs) {
  using M = opmath_t<T>;
  using R = decltype(BinaryF<OP>{}(M{}, M{}));
  using Out = std::conditional_t<std::is_same_v<R, bool>, bool, T>;
  const LoopSpec& s = bs.loop;
  if (bs.b_is_scalar) {
    const M sc = spec_scalar_opmath<T>(bs);
    const bool first = bs.scalar_first;
    loop(s, [sc, first](char** p, const int64_t* st, int64_t n) {
      Out* o = reinterpret_cast<Out*>(p[0]);
      const T* a = reinterpret_cast<const T*>(p[1]);
      BinaryF<OP> f;
      if (first) {
        for (int64_t i = 0; i < n; ++i) o[i * st[0]] = cast_to<Out>(f(sc, M(a[i * st[1]])));
      } else if (st[0] == 1 && st[1] == 1) {
        for (int64_t i = 0; i < n; ++i) o[i] = cast_to<Out>(f(M(a[i]), sc));
      } else {
        for (int64_t i = 0; i < n; ++i) o[i * st[0]] = cast_to<Out>(f(M(a[i * st[1]]), sc));
      }
    });
    return;
  }
  if constexpr (OP == BinaryOp::Add && is_float_v<T>) {
    if (bs.alpha != 1) {                     // Note [Add with alpha]
      const M al = M(cast_to<T>(bs.alpha));  // alpha in the tensor's dtype, as PyTorch's add_kernel
      loop(s, [al](char** p, const int64_t* st, int64_t n) {
        T* o = reinterpret_cast<T*>(p[0]);
        const T* a = reinterpret_cast<const T*>(p[1]);
        const T* b = reinterpret_cast<const T*>(p[2]);
        if (st[0] == 1 && st[1] == 1 && st[2] == 1) {
          if constexpr (std::is_same_v<T, float>) {
            if (fma_f32(a, b, al, o, n)) return;
          } else if constexpr (std::is_same_v<T, double>) {
            if (fma_f64(a, b, al, o, n)) return;
          }
          for (int64_t i = 0; i < n; ++i) o[i] = cast_to<T>(m::fma(M(b[i]), al, M(a[i])));
        } else {
          for (int64_t i = 0; i < n; ++i) o[i * st[0]] = cast_to<T>(m::fma(M(b[i * st[2]]), al, M(a[i * st[1]])));
        }
      });
      return;
    }
  }
  loop(s, [](char** p, const int64_t* st, int64_t n) {
    Out* o = reinterpret_cast<Out*>(p[0]);
    const T* a = reinterpret_cast<const T*>(p[1]);
    const T* b = reinterpret_cast<const T*>(p[2]);
    BinaryF<OP> f;
    if (st[0] == 1 && st[1] == 1 && st[2] == 1) {
      for (int64_t i = 0; i < n; ++i) o[i] = cast_to<Out>(f(M(a[i]), M(b[i])));
    } else if (st[0] == 1 && st[1] == 1 && st[2] == 0) {
      const M bv = M(b[0]);
      for (int64_t i = 0; i < n; ++i) o[i] = cast_to<Out>(f(M(a[i]), bv));
    } else {
      for (int64_t i = 0; i < n; ++i) o[i * st[0]] = cast_to<Out>(f(M(a[i * st[1]]), M(b[i * st[2]])));
    }
  });
}

template <class D, class S> void copy_typed(const LoopSpec& s) {
  loop(s, [](char** p, const int64_t* st, int64_t n) {
    D* o = reinterpret_cast<D*>(p[0]);
    const S* a = reinterpret_cast<const S*>(p[1]);
    if (st[0] == 1 && st[1] == 1) {
      if constexpr (std::is_same_v<D, BFloat16> && std::is_same_v<S, float>) {
        if (cast_f32_to_bf16(a, o, n)) return;  // Note [Vector bfloat16 casts]
      } else if constexpr (std::is_same_v<D, float> && std::is_same_v<S, BFloat16>) {
        if (cast_bf16_to_f32(a, o, n)) return;
      }
      for (int64_t i = 0; i < n; ++i) o[i] = cast_to<D>(a[i]);
    } else {
      for (int64_t i = 0; i < n; ++i) o[i * st[0]] = cast_to<D>(a[i * st[1]]);
    }
  });
}

}  // namespace

void unary(void*, UnaryOp op, const LoopSpec& s) {
  dispatch_unary(op, [&](auto opc) {
    constexpr UnaryOp OP = decltype(opc)::value;
    dispatch_dtype(s.args[1].dtype, [&](auto t) {
      using T = decltype(t);
      if constexpr (!unary_float_only<OP> || is_float_v<T>) unary_typed<OP, T>(s);
      else throw NotImplementedError(cat("unary op not implemented for '", dtype_legacy_name(s.args[1].dtype), "'"));
    });
  });
}

// The op's name as PyTorch's kernels give it in "not implemented for" errors.
inline const char* binary_kernel_name(BinaryOp op) {
  static constexpr const char* names[] = {
// clang-format off
#define GL_BINARY(E, name, ...) #name,
#include "tensor/ops/op_rows.def"
      // clang-format on
  };
  return names[size_t(op)];
}

void binary(void*, const BinarySpec& s) {
  dispatch_binary(s.op, [&](auto opc) {
    constexpr BinaryOp OP = decltype(opc)::value;
    dispatch_dtype(s.compute, [&](auto t) {
      using T = decltype(t);
      if constexpr ((is_float_v<T> && binary_float_ok<OP>) || (!is_float_v<T> && binary_int_ok<OP>))
        binary_typed<OP, T>(s);
      else
        throw NotImplementedError(
            cat('"', binary_kernel_name(s.op), "_cpu\" not implemented for '", dtype_legacy_name(s.compute), "'"));
    });
  });
}

void where(void*, const LoopSpec& s) {
  dispatch_dtype(s.args[0].dtype, [&](auto t) {
    using T = decltype(t);
    loop(s, [](char** p, const int64_t* st, int64_t n) {
      T* o = reinterpret_cast<T*>(p[0]);
      const bool* c = reinterpret_cast<const bool*>(p[1]);
      const T* a = reinterpret_cast<const T*>(p[2]);
      const T* b = reinterpret_cast<const T*>(p[3]);
      for (int64_t i = 0; i < n; ++i) o[i * st[0]] = c[i * st[1]] ? a[i * st[2]] : b[i * st[3]];
    });
  });
}

void copy(void*, const LoopSpec& s) {
  dispatch_dtype(s.args[0].dtype, [&](auto d) {
    dispatch_dtype(s.args[1].dtype, [&](auto src) { copy_typed<decltype(d), decltype(src)>(s); });
  });
}

void fill(void*, const LoopSpec& s, Scalar v) {
  dispatch_dtype(s.args[0].dtype, [&](auto t) {
    using T = decltype(t);
    const T val = v.kind == Scalar::Float ? cast_to<T>(v.f) : cast_to<T>(v.i);
    loop(s, [val](char** p, const int64_t* st, int64_t n) {
      T* o = reinterpret_cast<T*>(p[0]);
      for (int64_t i = 0; i < n; ++i) o[i * st[0]] = val;
    });
  });
}

}  // namespace gl::cpu
