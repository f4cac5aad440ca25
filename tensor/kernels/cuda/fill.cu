// fill_: every element of out set to one value, converted on the host with
// cast_to (the CPU's rules) and then moved by item size. Dense outputs whose
// value is one repeated byte (zeros, -1 integers, ...) use cudaMemsetAsync.
#include <cstring>
#include "tensor/kernels/cuda/launch.cuh"

namespace gl::cuda {

namespace {
template <class U> struct ConstFn {
  U v;
  GL_HD U operator()() const { return v; }
};
}  // namespace

void k_fill(void* exec, const LoopSpec& s, Scalar v) {
  if (s.numel <= 0) return;
  Exec* ex = as_exec(exec);
  DeviceGuard device_guard(ex->device);
  dispatch_dtype(s.args[0].dtype, [&](auto t) {
    using T = decltype(t);
    const T val = v.kind == Scalar::Float ? cast_to<T>(v.f) : cast_to<T>(v.i);
    using U = typename UIntOf<sizeof(T)>::type;
    U bits;
    std::memcpy(&bits, &val, sizeof bits);
    unsigned char bytes[sizeof(U)];
    std::memcpy(bytes, &bits, sizeof bits);
    bool one_byte = true;
    for (size_t i = 1; i < sizeof(U); ++i) one_byte = one_byte && bytes[i] == bytes[0];
    if ((s.contiguous || s.ndim == 0) && one_byte) {
      check_cuda(cudaMemsetAsync(s.args[0].data, bytes[0], size_t(s.numel) * sizeof(U), ex->stream));
      return;
    }
    launch_loop<0, U>(ex, s, ConstFn<U>{bits});
  });
}

}  // namespace gl::cuda
