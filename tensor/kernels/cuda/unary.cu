// Unary elementwise ops: out = UnaryF<OP>(in), computed in opmath (float for
// float16/bfloat16), stored as the input dtype or as bool for the predicates.
// Float-only ops are instantiated for the four float dtypes only (the op layer
// promotes integer inputs first), as on the CPU.
#include "tensor/kernels/cuda/launch.cuh"

namespace gl::cuda {

namespace {

template <UnaryOp OP, class T, class Out> struct UnaryFn {
  GL_HD Out operator()(T x) const { return cast_to<Out>(UnaryF<OP>{}(opmath_t<T>(x))); }
};

template <UnaryOp OP, class T> void unary_typed(Exec* ex, const LoopSpec& s) {
  using M = opmath_t<T>;
  using R = decltype(UnaryF<OP>{}(M{}));
  using Out = std::conditional_t<std::is_same_v<R, bool>, bool, T>;
  launch_loop<1, Out, T>(ex, s, UnaryFn<OP, T, Out>{});
}

}  // namespace

void k_copy(void*, const LoopSpec&);          // copy.cu
void k_fill(void*, const LoopSpec&, Scalar);  // fill.cu

void k_unary(void* exec, UnaryOp op, const LoopSpec& s) {
  if (s.numel <= 0) return;
  Exec* ex = as_exec(exec);
  DeviceGuard device_guard(ex->device);
  dispatch_unary(op, [&](auto opc) {
    constexpr UnaryOp OP = decltype(opc)::value;
    dispatch_dtype(s.args[1].dtype, [&](auto t) {
      using T = decltype(t);
      constexpr bool rounding = unary_policy(OP) == UnaryPolicy::Rounding;
      constexpr bool predicate = OP == UnaryOp::IsNan || OP == UnaryOp::IsInf || OP == UnaryOp::IsFinite;
      // On integers UnaryF's rounding ops are the identity and its float
      // predicates constants: a copy or a fill, with no kernels of their own.
      if constexpr (std::is_integral_v<T> && rounding) {
        k_copy(exec, s);
      } else if constexpr (std::is_integral_v<T> && predicate) {
        LoopSpec out = s;
        out.nargs = 1;
        k_fill(exec, out, Scalar::from_bool(OP == UnaryOp::IsFinite));
      } else if constexpr (!unary_float_only<OP> || is_float_v<T>) {
        unary_typed<OP, T>(ex, s);
      } else {
        throw NotImplementedError(cat("unary op not implemented for '", dtype_legacy_name(s.args[1].dtype), "'"));
      }
    });
  });
}

}  // namespace gl::cuda
