// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3",
// SC'11), the counter-based generator of cuRAND and of PyTorch on CUDA. Plain
// C++ that nvcc also compiles for the device: the CUDA random kernels
// (kernels/cuda/random.cuh) and the host parts of PyTorch's CUDA randperm
// (ops/random_ops.cpp) share it.
#pragma once
#include <cstdint>

#ifdef __CUDACC__
#define GL_PHILOX_HD __host__ __device__
#else
#define GL_PHILOX_HD
#endif

namespace gl {

struct Philox4 {
  uint32_t x[4];
};

// Four words for counter (lo, hi) (64-bit halves) under a 64-bit key. cuRAND's
// state for (seed, subsequence s, offset o) draws, on its j-th curand4(),
// philox4x32_10(o / 4 + j, s, seed) (o a multiple of 4).
GL_PHILOX_HD inline Philox4 philox4x32_10(uint64_t ctr_lo, uint64_t ctr_hi, uint64_t key) {
  uint32_t c0 = uint32_t(ctr_lo), c1 = uint32_t(ctr_lo >> 32), c2 = uint32_t(ctr_hi), c3 = uint32_t(ctr_hi >> 32);
  uint32_t k0 = uint32_t(key), k1 = uint32_t(key >> 32);
  for (int i = 0; i < 10; ++i) {
    if (i) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    const uint64_t p0 = uint64_t(0xD2511F53u) * c0, p1 = uint64_t(0xCD9E8D57u) * c2;
    const uint32_t n0 = uint32_t(p1 >> 32) ^ c1 ^ k0, n2 = uint32_t(p0 >> 32) ^ c3 ^ k1;
    c0 = n0;
    c1 = uint32_t(p1);
    c2 = n2;
    c3 = uint32_t(p0);
  }
  return Philox4{{c0, c1, c2, c3}};
}

}  // namespace gl
