// Binary arithmetic and bitwise ops (add ... atan2, bit_and/or/xor); the
// comparisons and logical ops are in compare.cu. See binary.cuh.
#include "tensor/kernels/cuda/binary.cuh"

namespace gl::cuda {

void k_binary(void* exec, const BinarySpec& s) {
  if (s.loop.numel <= 0) return;
  Exec* ex = as_exec(exec);
  DeviceGuard device_guard(ex->device);
  if (is_comparison(s.op)) return binary_compare(ex, s);
  binary_dispatch<false>(ex, s);
}

}  // namespace gl::cuda
