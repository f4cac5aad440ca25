// Note [PyTorch's vector Box-Muller]: on a CPU with AVX2, PyTorch turns
// float32 uniforms into normals (randn, normal_, nn.init.normal_ of 16 or
// more contiguous elements) with Cephes' logf and sincosf evaluated eight
// lanes at a time (avx_mathfun's log256_ps and sincos256_ps), not with libm.
// Their results differ from libm's by a few ulp in four draws of ten, which
// shows in about one printed digit in sixty. So that a seeded program prints
// PyTorch's numbers, the same algorithm runs here where PyTorch would run it:
// the same operations in the same order, with a fused multiply-add exactly
// where GCC fused one when it compiled PyTorch's (found by matching 4,194,304
// draws of PyTorch 2.15 bit for bit; tests/pytorch/gen_b1_ops.py keeps a case).
// Without AVX2 and FMA PyTorch takes its scalar loop, and so does gpulab.
#pragma once
#include <cstdint>

namespace gl::cpu {

// Replaces data[0..16) (uniforms in [0, 1)) by 16 normals(mean, std), as
// PyTorch's normal_fill_16_AVX2; false (nothing written) on a CPU without
// AVX2 and FMA, where the caller runs PyTorch's scalar normal_fill_16.
bool normal_fill_16_f32(float* data, float mean, float std);

}  // namespace gl::cpu
