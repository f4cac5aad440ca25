// The CPU gather/scatter loop (kernels/index_spec.h). Gathers split across
// cores; scatters run in index order on one core, so repeated indices
// combine (or overwrite) in the order PyTorch's CPU kernel does.
#include "tensor/kernels/index_spec.h"
#include "tensor/kernels/cpu/threads.h"

namespace gl::cpu {

namespace {
constexpr int64_t kIndexGrain = 32768;
}

void index(void*, const IndexSpec& s) {
  if (s.numel <= 0) return;
  dispatch_dtype(s.self.dtype, [&](auto t) {
    using T = decltype(t);
    T* self = reinterpret_cast<T*>(s.self.data);
    T* other = reinterpret_cast<T*>(s.other.data);
    const int64_t* index = reinterpret_cast<const int64_t*>(s.index.data);
    if (s.op == IndexOp::Gather) {
      auto one = [&](int64_t i) {
        int64_t a, b, k;
        index_offsets(s, i, a, b, k);
        other[b] = self[a + index[k] * s.self_step];
      };
      if (s.numel <= kIndexGrain) {  // no OpenMP region for small gathers
        for (int64_t i = 0; i < s.numel; ++i) one(i);
        return;
      }
      fit_threads();  // Note [Threads that pay]
#pragma omp parallel for schedule(static)
      for (int64_t i = 0; i < s.numel; ++i) one(i);
      return;
    }
    for (int64_t i = 0; i < s.numel; ++i) {
      int64_t a, b, k;
      index_offsets(s, i, a, b, k);
      T* dst = self + a + index[k] * s.self_step;
      const T v = index_source<T>(s, other, b);
      *dst = s.op == IndexOp::Scatter ? v : index_combine<T>(s.op, *dst, v, s.alpha);
    }
  });
}

}  // namespace gl::cpu
