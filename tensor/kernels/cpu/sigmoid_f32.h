// Note [Vector sigmoid]: LeNet's sigmoid spent a fifth of a CPU epoch in
// libm's scalar expf. Contiguous float32 sigmoid runs here eight at a time
// where the CPU has AVX2 and FMA: exp by Cephes' method (x = k ln2 + r,
// |r| <= ln2/2, a degree-6 polynomial, 2^k in the exponent bits). The result
// is within 4 ulp of the scalar functor's (measured over a sweep of [-100,
// 100]: exp's error, grown where 1 + exp(-x) rounds), as PyTorch's own vector
// sigmoid (Sleef's expf, 1 ulp) differs from libm's too. Where
// exp(-x) overflows or underflows, and for NaN, the lanes take what
// UnaryF<Sigmoid> (kernels/functors.h) gives; a unit test compares the two.
#pragma once
#include <cstdint>

namespace gl::cpu {

// o[i] = 1 / (1 + exp(-a[i])) for i < n; false (nothing written) on a CPU
// without AVX2 and FMA, where the caller runs the functor.
bool sigmoid_f32(const float* a, float* o, int64_t n);

}  // namespace gl::cpu
