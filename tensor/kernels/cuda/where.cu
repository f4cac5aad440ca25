// where(cond, a, b): out = cond ? a : b. Values are only moved, so the kernel
// is instantiated per item size (1, 2, 4, 8 bytes), not per dtype.
#include "tensor/kernels/cuda/launch.cuh"

namespace gl::cuda {

namespace {
template <class U> struct WhereFn {
  GL_HD U operator()(bool c, U a, U b) const { return c ? a : b; }
};
}  // namespace

void k_where(void* exec, const LoopSpec& s) {
  if (s.numel <= 0) return;
  Exec* ex = as_exec(exec);
  DeviceGuard device_guard(ex->device);
  dispatch_size(s.args[0].dtype, [&](auto u) {
    using U = decltype(u);
    launch_loop<3, U, bool, U, U>(ex, s, WhereFn<U>{});
  });
}

}  // namespace gl::cuda
