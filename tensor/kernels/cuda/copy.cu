// Strided copy with dtype conversion (cast_to, the CPU's rules), for every
// pair of the ten dtypes. Same-dtype copies move bytes: cudaMemcpyAsync when
// both sides are dense, else a kernel per item size.
#include "tensor/kernels/cuda/launch.cuh"

namespace gl::cuda {

namespace {
template <class D, class S> struct CastFn {
  GL_HD D operator()(S x) const { return cast_to<D>(x); }
};
template <class U> struct MoveFn {
  GL_HD U operator()(U x) const { return x; }
};
}  // namespace

void k_copy(void* exec, const LoopSpec& s) {
  if (s.numel <= 0) return;
  Exec* ex = as_exec(exec);
  DeviceGuard device_guard(ex->device);
  const DType dt = s.args[0].dtype, st = s.args[1].dtype;
  if (dt == st) {
    if (s.contiguous || s.ndim == 0) {
      if (s.args[0].data != s.args[1].data)
        check_cuda(cudaMemcpyAsync(s.args[0].data, s.args[1].data, size_t(s.numel) * itemsize(dt),
                                   cudaMemcpyDeviceToDevice, ex->stream));
      return;
    }
    dispatch_size(dt, [&](auto u) {
      using U = decltype(u);
      launch_loop<1, U, U>(ex, s, MoveFn<U>{});
    });
    return;
  }
  dispatch_dtype(dt, [&](auto d) {
    using D = decltype(d);
    dispatch_dtype(st, [&](auto src) {
      using S = decltype(src);
      if constexpr (!std::is_same_v<D, S>) launch_loop<1, D, S>(ex, s, CastFn<D, S>{});
    });
  });
}

}  // namespace gl::cuda
