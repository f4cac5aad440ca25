// The sum of one block of contiguous float32 values, the inner loop of every
// whole-tensor and inner-dimension float sum on the CPU (kernels/cpu/reduce.cpp).
// Note [Sums in blocks]: a float sum adds blocks of 4096 values in float and the
// blocks' sums in double, so its result does not depend on the thread count and
// long sums stay accurate without a second pass; within a block, 32 partial sums
// (four AVX2 vectors where the CPU has them) keep the adds independent.
#pragma once
#include <cstdint>

namespace gl::cpu {

constexpr int64_t kSumBlock = 4096;

// x[0] + ... + x[n-1], n <= kSumBlock: the AVX2 loop where the CPU has it.
double sum_block_f32(const float* x, int64_t n);
// The same sum in the same order, in portable C++ (what other CPUs run).
double sum_block_f32_portable(const float* x, int64_t n);

}  // namespace gl::cpu
