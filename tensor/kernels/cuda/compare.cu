// Comparisons (eq, ne, lt, le, gt, ge) and logical and/or/xor: bool output.
// See binary.cuh.
#include "tensor/kernels/cuda/binary.cuh"

namespace gl::cuda {

void binary_compare(Exec* ex, const BinarySpec& s) { binary_dispatch<true>(ex, s); }

}  // namespace gl::cuda
