// addcmul and lerp (Note [Ternary ops] in kernels/spec.h): TernaryF over the
// elementwise launcher. nvcc would contract a * b + c into an FMA on its own;
// the functor says so explicitly, as the CPU kernel does, so both round alike.
#include "tensor/kernels/cuda/launch.cuh"

namespace gl::cuda {

void k_ternary(void* exec, const TernarySpec& s) {
  if (s.loop.numel <= 0) return;
  Exec* ex = as_exec(exec);
  DeviceGuard device_guard(ex->device);
  dispatch_dtype(s.compute, [&](auto t) {
    using T = decltype(t);
    using M = opmath_t<T>;
    if (s.op == TernaryOp::Lerp) {
      if constexpr (is_float_v<T>) {
        const TernaryF<TernaryOp::Lerp, T> f{M(s.value)};
        if (s.scalar_weight) launch_loop<2, T, T, T>(ex, s.loop, f);  // f(start, end): the number weight
        else launch_loop<3, T, T, T, T>(ex, s.loop, f);
        return;
      }
      throw NotImplementedError(cat("\"lerp_kernel_", s.scalar_weight ? "scalar" : "tensor", "\" not implemented for '",
                                    dtype_legacy_name(s.compute), "'"));
    }
    if (s.op == TernaryOp::Addcdiv) {
      if constexpr (is_float_v<T>) {
        launch_loop<3, T, T, T, T>(ex, s.loop, TernaryF<TernaryOp::Addcdiv, T>{M(s.value)});
        return;
      }
      throw NotImplementedError(cat("\"addcdiv_cuda\" not implemented for '", dtype_legacy_name(s.compute), "'"));
    }
    if constexpr (std::is_same_v<T, bool>)
      throw NotImplementedError(cat("\"addcmul_cuda\" not implemented for '", dtype_legacy_name(s.compute), "'"));
    else
      launch_loop<3, T, T, T, T>(ex, s.loop,
                                 TernaryF<TernaryOp::Addcmul, T>{is_float_v<T> ? M(s.value) : M(s.value_i)});
  });
}

}  // namespace gl::cuda
