// What the test_cuda_host*.cpp files share: a grid-stride launch run thread by
// thread on the host, and storage placed off a 16-byte boundary on purpose.
#pragma once
#include <cstdint>
#include <vector>
#include "tensor/kernels/cuda/launch.cuh"

namespace gl::cuda::host_test {

// Runs body(Grid{t, nthreads}) for every thread t of a grid-stride launch.
template <class Body> void emulate(int64_t nthreads, Body&& body) {
  for (int64_t t = 0; t < nthreads; ++t) body(Grid{t, nthreads});
}

// Storage whose element 0 sits `shift` elements past a 16-byte boundary.
template <class T> struct Buf {
  std::vector<unsigned char> raw;
  T* p;
  Buf(int64_t n, int shift) : raw(size_t(n + shift) * sizeof(T) + 64) {
    uintptr_t a = (reinterpret_cast<uintptr_t>(raw.data()) + 15) / 16 * 16;
    p = reinterpret_cast<T*>(a) + shift;
  }
};

}  // namespace gl::cuda::host_test
