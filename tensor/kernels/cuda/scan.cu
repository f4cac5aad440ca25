// Scans along one dim (cumsum, cumprod): see scan.cuh for the per-thread body.
#include "tensor/kernels/cuda/scan.cuh"

namespace gl::cuda {

namespace {
template <class T> __global__ void __launch_bounds__(kThreads) k_scan_lines(ScanSpec s) { scan_body<T>(grid_1d(), s); }
}  // namespace

void k_scan(void* exec, const ScanSpec& s) {
  if (s.lines <= 0 || s.len <= 0) return;
  Exec* ex = as_exec(exec);
  DeviceGuard device_guard(ex->device);
  dispatch_dtype(s.out.dtype, [&](auto t) {
    using T = decltype(t);
    constexpr auto kernel = k_scan_lines<T>;
    kernel<<<grid_for(ex, s.lines, resident_blocks<kernel>()), kThreads, 0, ex->stream>>>(s);
  });
  check_launch();
}

}  // namespace gl::cuda
