// Binary elementwise ops, shared by binary.cu (arithmetic, bitwise) and
// compare.cu (comparisons, logical ops): out = BinaryF<OP>(a, b) in opmath.
//
// A scalar operand (BinarySpec::b_is_scalar) is held by value in the functor;
// the kernel then reads `a` twice (the second read hits the same cache lines)
// so that one kernel serves tensor-tensor, tensor-scalar and scalar-tensor.
#pragma once
#include "tensor/kernels/cuda/launch.cuh"

namespace gl::cuda {

template <BinaryOp OP, class T> constexpr bool binary_supported = (is_float_v<T> && binary_float_ok<OP>) ||
                                                                  (!is_float_v<T> && binary_int_ok<OP>);

template <BinaryOp OP, class T, class Out> struct BinaryFn {
  opmath_t<T> sc;
  int mode;  // 0: f(a, b); 1: f(a, scalar); 2: f(scalar, a); 3: a + sc * b fused (Note [Add with alpha])
  GL_HD Out operator()(T a, T b) const {
    using M = opmath_t<T>;
    BinaryF<OP> f;
    if (mode == 0) return cast_to<Out>(f(M(a), M(b)));
    if constexpr (OP == BinaryOp::Add && is_float_v<T>) {
      if (mode == 3) return cast_to<Out>(m::fma(M(b), sc, M(a)));
    }
    if (mode == 1) return cast_to<Out>(f(M(a), sc));
    return cast_to<Out>(f(sc, M(a)));
  }
};

template <BinaryOp OP, class T> void binary_typed(Exec* ex, const BinarySpec& bs) {
  using M = opmath_t<T>;
  using R = decltype(BinaryF<OP>{}(M{}, M{}));
  using Out = std::conditional_t<std::is_same_v<R, bool>, bool, T>;
  BinaryFn<OP, T, Out> fn{M(0), 0};
  if (!bs.b_is_scalar) {
    if constexpr (OP == BinaryOp::Add && is_float_v<T>) {
      if (bs.alpha != 1) fn = {M(cast_to<T>(bs.alpha)), 3};
    }
    launch_loop<2, Out, T, T>(ex, bs.loop, fn);
    return;
  }
  fn.sc = spec_scalar_opmath<T>(bs);
  fn.mode = bs.scalar_first ? 2 : 1;
  LoopSpec s = bs.loop;  // out, a: let the b slot alias a
  s.nargs = 3;
  s.args[2] = s.args[1];
  launch_loop<2, Out, T, T>(ex, s, fn);
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

// Instantiates only the comparison ops (Compare) or only the others; k_binary
// sends each op to the file that instantiates it.
template <bool Compare> void binary_dispatch(Exec* ex, const BinarySpec& s) {
  dispatch_binary(s.op, [&](auto opc) {
    constexpr BinaryOp OP = decltype(opc)::value;
    if constexpr (is_comparison(OP) == Compare) {
      dispatch_dtype(s.compute, [&](auto t) {
        using T = decltype(t);
        if constexpr (binary_supported<OP, T>) binary_typed<OP, T>(ex, s);
        else
          throw NotImplementedError(
              cat('"', binary_kernel_name(s.op), "_cuda\" not implemented for '", dtype_legacy_name(s.compute), "'"));
      });
    }
  });
}

void binary_compare(Exec* ex, const BinarySpec& s);  // compare.cu

}  // namespace gl::cuda
