// CPU scans: one line per iteration, lines split across cores above the
// grain size (the math is kernels/scan.h, shared with CUDA).
#include "tensor/kernels/cpu/loop.h"
#include "tensor/kernels/scan.h"

namespace gl::cpu {

void scan(void*, const ScanSpec& s) {
  if (s.lines == 0 || s.len == 0) return;
  dispatch_dtype(s.out.dtype, [&](auto t) {
    using T = decltype(t);
    if (s.lines * s.len > kGrain && s.lines > 1) {
      fit_threads();  // Note [Threads that pay]
#pragma omp parallel for schedule(static)
      for (int64_t l = 0; l < s.lines; ++l) scan_line<T>(s, l);
    } else {
      for (int64_t l = 0; l < s.lines; ++l) scan_line<T>(s, l);
    }
  });
}

}  // namespace gl::cpu
