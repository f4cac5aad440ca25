// Note [Add with alpha] (kernels/spec.h): a + alpha * b rounded once. libm's
// fmaf is a function call per element (7x slower than a plain add on this
// baseline build), so contiguous float32 and float64 run here with the FMA
// instruction where the CPU has it, eight or four lanes at a time. The result
// is the same bits either way: a fused multiply-add is exact up to one rounding.
#pragma once
#include <cstdint>

namespace gl::cpu {

// o[i] = fma(b[i], alpha, a[i]) for i < n; false (nothing written) on a CPU
// without AVX2 and FMA, where the caller runs the scalar loop.
bool fma_f32(const float* a, const float* b, float alpha, float* o, int64_t n);
bool fma_f64(const double* a, const double* b, double alpha, double* o, int64_t n);

}  // namespace gl::cpu
