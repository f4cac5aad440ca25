// CUDA sorting and selection (the spec and shared line math: kernels/sort.h).
// Sorting uses Thrust on the slot's stream: one stable sort of every value
// with its position, then a stable sort by line, which keeps each line's
// order (the back-to-back segmented sort). Selections run one line per
// thread on scratch the op layer provides; gathers and scatters one element
// per thread. Ties in topk and mode may pick other indices than the CPU, as
// in PyTorch, whose CUDA kernels differ from its CPU ones too.
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include "tensor/kernels/cuda/launch.cuh"
#include "tensor/kernels/sort.h"

namespace gl::cuda {

namespace {

template <class T> struct ByValue {
  bool descending;
  __host__ __device__ bool operator()(const T& a, const T& b) const {
    return descending ? sortk::gt(sortk::key(a), sortk::key(b)) : sortk::lt(sortk::key(a), sortk::key(b));
  }
};

struct LineOf {
  int64_t len;
  __host__ __device__ int64_t operator()(int64_t pos) const { return pos / len; }
};
struct PosInLine {
  int64_t len;
  __host__ __device__ int64_t operator()(int64_t pos) const { return pos % len; }
};

// Sorts n = lines * len values in place, stably per line; indices get each
// value's position in its line.
template <class T> void sort_lines(Exec* ex, T* v, int64_t* ix, int64_t lines, int64_t len, bool descending) {
  const int64_t n = lines * len;
  auto pol = thrust::cuda::par.on(ex->stream);
  thrust::sequence(pol, ix, ix + n);
  thrust::stable_sort_by_key(pol, v, v + n, ix, ByValue<T>{descending});
  if (lines > 1) {
    int64_t* seg = nullptr;
    check_cuda(cudaMallocAsync(reinterpret_cast<void**>(&seg), size_t(n) * sizeof(int64_t), ex->stream));
    thrust::transform(pol, ix, ix + n, seg, LineOf{len});
    thrust::stable_sort_by_key(pol, seg, seg + n, thrust::make_zip_iterator(thrust::make_tuple(v, ix)));
    check_cuda(cudaFreeAsync(seg, ex->stream));
  }
  thrust::transform(pol, ix, ix + n, ix, PosInLine{len});
}

template <class T> __global__ void __launch_bounds__(kThreads) k_lines(SortSpec s) {
  const Grid g = grid_1d();
  for (int64_t l = g.tid; l < s.lines; l += g.nthreads) {
    switch (s.op) {
      case SortOp::Kth: sortk::kth_line<T>(s, l); break;
      case SortOp::Median: sortk::median_line<T>(s, l); break;
      case SortOp::Mode:
        sortk::mode_of_sorted_line(reinterpret_cast<const T*>(s.values) + l * s.len, s.indices + l * s.len, s.len,
                                   reinterpret_cast<T*>(s.out) + l, s.out_indices + l);
        break;
      case SortOp::TopK:  // values sorted in place: the first k of each line
        for (int64_t j = 0; j < s.k; ++j) {
          reinterpret_cast<T*>(s.out)[l * s.k + j] = reinterpret_cast<const T*>(s.values)[l * s.len + j];
          s.out_indices[l * s.k + j] = s.indices[l * s.len + j];
        }
        break;
      default: break;
    }
  }
}

template <class T> __global__ void __launch_bounds__(kThreads) k_elems(SortSpec s) {
  const Grid g = grid_1d();
  for (int64_t e = g.tid; e < s.lines * s.k; e += g.nthreads) {
    if (s.op == SortOp::Gather) sortk::gather_at<T>(s, e);
    else sortk::scatter_at<T>(s, e);
  }
}

}  // namespace

void k_sort(void* exec, const SortSpec& s) {
  if (s.lines <= 0) return;
  Exec* ex = as_exec(exec);
  DeviceGuard device_guard(ex->device);
  dispatch_dtype(s.dtype, [&](auto t) {
    using T = decltype(t);
    T* v = reinterpret_cast<T*>(s.values);
    switch (s.op) {
      case SortOp::Sort:
        if (s.len) sort_lines<T>(ex, v, s.indices, s.lines, s.len, s.descending);
        return;
      case SortOp::TopK:
      case SortOp::Mode:
        if (s.len == 0 || (s.op == SortOp::TopK && s.k == 0)) return;
        sort_lines<T>(ex, v, s.indices, s.lines, s.len, s.op == SortOp::TopK && s.descending);
        break;
      case SortOp::Gather:
      case SortOp::Scatter:
        if (s.k == 0) return;
        k_elems<T><<<grid_for(ex, s.lines * s.k), kThreads, 0, ex->stream>>>(s);
        check_launch();
        return;
      default: break;
    }
    k_lines<T><<<grid_for(ex, s.lines), kThreads, 0, ex->stream>>>(s);
    check_launch();
  });
}

}  // namespace gl::cuda
