// The CUDA gather/scatter kernel (kernels/index_spec.h): one thread per
// position of the iteration shape. Accumulating scatters combine atomically
// (a compare-and-swap on the aligned word that holds the element, so every
// dtype works, bool and 16-bit floats included); plain scatters to a repeated
// index keep one of the values, as PyTorch's CUDA scatter does.
#include <cstring>
#include "tensor/kernels/cuda/launch.cuh"
#include "tensor/kernels/index_spec.h"

namespace gl::cuda {

namespace {

template <class T> __device__ void atomic_combine(T* addr, IndexOp op, T v, double alpha) {
  if constexpr (sizeof(T) == 8) {
    auto* w = reinterpret_cast<unsigned long long*>(addr);
    unsigned long long old = *w, assumed;
    do {
      assumed = old;
      T cur;
      memcpy(&cur, &assumed, 8);
      const T nv = index_combine<T>(op, cur, v, alpha);
      unsigned long long bits;
      memcpy(&bits, &nv, 8);
      old = atomicCAS(w, assumed, bits);
    } while (old != assumed);
  } else {
    const uintptr_t p = reinterpret_cast<uintptr_t>(addr);
    auto* w = reinterpret_cast<unsigned int*>(p & ~uintptr_t(3));
    const unsigned shift = unsigned(p & 3) * 8;
    const unsigned mask = sizeof(T) == 4 ? 0xffffffffu : ((1u << (8 * sizeof(T))) - 1u) << shift;
    unsigned old = *w, assumed;
    do {
      assumed = old;
      const unsigned bits = (assumed & mask) >> shift;
      T cur;
      memcpy(&cur, &bits, sizeof(T));
      const T nv = index_combine<T>(op, cur, v, alpha);
      unsigned nb = 0;
      memcpy(&nb, &nv, sizeof(T));
      old = atomicCAS(w, assumed, (assumed & ~mask) | ((nb << shift) & mask));
    } while (old != assumed);
  }
}

template <class T> __global__ void __launch_bounds__(kThreads) index_kernel(IndexSpec s) {
  const Grid g = grid_1d();
  T* self = reinterpret_cast<T*>(s.self.data);
  T* other = reinterpret_cast<T*>(s.other.data);
  const int64_t* index = reinterpret_cast<const int64_t*>(s.index.data);
  for (int64_t i = g.tid; i < s.numel; i += g.nthreads) {
    int64_t a, b, k;
    index_offsets(s, i, a, b, k);
    T* at = self + a + index[k] * s.self_step;
    if (s.op == IndexOp::Gather) other[b] = *at;
    else if (s.op == IndexOp::Scatter) *at = index_source<T>(s, other, b);
    else atomic_combine<T>(at, s.op, index_source<T>(s, other, b), s.alpha);
  }
}

}  // namespace

void k_index(void* exec, const IndexSpec& s) {
  if (s.numel <= 0) return;
  Exec* ex = as_exec(exec);
  DeviceGuard device_guard(ex->device);
  dispatch_dtype(s.self.dtype, [&](auto t) {
    using T = decltype(t);
    constexpr auto kernel = index_kernel<T>;
    kernel<<<grid_for(ex, s.numel, resident_blocks<kernel>()), kThreads, 0, ex->stream>>>(s);
    check_launch();
  });
}

}  // namespace gl::cuda
