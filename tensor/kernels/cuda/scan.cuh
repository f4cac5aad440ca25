// The CUDA scan's per-thread body (cumsum, cumprod): one thread per output
// line, scanning it sequentially in PyTorch's CPU order, grid-stride over the
// lines. Simple rather than fast: a line is not split across threads, so a
// few long lines use few threads; in exchange the results are the CPU's, bit
// for bit (same accumulator, same order). __host__ __device__, so that
// tests/unit/test_cuda_host_scan.cpp runs every thread on the host.
#pragma once
#include "tensor/kernels/cuda/launch.cuh"
#include "tensor/kernels/scan.h"

namespace gl::cuda {

template <class T> GL_HD void scan_body(Grid g, const ScanSpec& s) {
  for (int64_t l = g.tid; l < s.lines; l += g.nthreads) scan_line<T>(s, l);
}

}  // namespace gl::cuda
