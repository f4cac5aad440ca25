// Note [Vector bfloat16 casts]: autocast on the CPU casts every weight and
// input to bfloat16 and every gradient back, each step; one element at a time
// through BFloat16::from_float (half.h) those casts cost gpulab's bfloat16
// MLP step a third of its time (bench/README.md). Contiguous float32 <->
// bfloat16 runs here eight at a time where the CPU has AVX2, with the same
// rounding as the scalar path (to nearest, ties to even; NaN stays a quiet
// NaN with the same top bits), so the results are bit for bit the scalar
// ones (tests/unit/test_cast_bf16.cpp sweeps them).
#pragma once
#include <cstdint>
#include "tensor/core/half.h"

namespace gl::cpu {

// o[i] = BFloat16(a[i]) for i < n; false (nothing written) without AVX2.
bool cast_f32_to_bf16(const float* a, BFloat16* o, int64_t n);
// o[i] = float(a[i]) for i < n; false (nothing written) without AVX2.
bool cast_bf16_to_f32(const BFloat16* a, float* o, int64_t n);

}  // namespace gl::cpu
