// The CUDA execution context behind the opaque `exec` pointers of the device
// registry, and the error helpers shared by the runtime (.cpp, g++) and the
// kernels (.cu, nvcc). Only gpulab_cuda includes this header.
#pragma once
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>
#include "tensor/runtime/cuda_device_guard.h"

struct cublasContext;  // cublasHandle_t is `cublasContext*`; kept out of the kernels' headers

namespace gl {
class Allocator;
}

namespace gl::cuda {

// PyTorch's default generator seed, for CUDA devices as for the CPU.
constexpr uint64_t kDefaultSeed = 67280421310721ULL;

constexpr size_t kBlasWorkspace = size_t(32) << 20;

// One per device slot (a physical GPU, or a virtual slice of one): its own
// non-blocking stream, so work on different slots may overlap.
struct Exec {
  int device = 0;                 // physical ordinal
  cudaStream_t stream = nullptr;  // every kernel and copy of this slot runs here
  int sm_count = 1;
  int max_threads_per_sm = 2048;

  // Guards the lazily made cuBLAS handle, the reduction workspace and the
  // generator state, so host threads sharing one slot stay consistent.
  std::mutex mu;
  cublasContext* blas = nullptr;
  void* blas_workspace = nullptr;  // cuBLAS's scratch, kBlasWorkspace bytes
  void* workspace = nullptr;       // partial results of split reductions
  size_t workspace_bytes = 0;
  uint64_t seed = kDefaultSeed;  // Philox key
  uint64_t offset = 0;           // PyTorch's philox_offset_per_thread (Note [PyTorch's CUDA draws])

  std::mutex order_mu;             // guards order_ev
  cudaEvent_t order_ev = nullptr;  // orders this stream before another slot's
};

inline Exec* as_exec(void* p) { return static_cast<Exec*>(p); }

// Throws gl::RuntimeError("CUDA error: <cudaGetErrorString(e)>"), after
// clearing the runtime's last-error slot. Never aborts.
[[noreturn]] void throw_cuda(cudaError_t e);
inline void check_cuda(cudaError_t e) {
  if (e != cudaSuccess) [[unlikely]]
    throw_cuda(e);
}
// After a kernel launch: throws if the launch failed.
void check_launch();
// A device is made current only by a DeviceGuard (cuda_device_guard.h), which
// restores the previous one when its scope ends.
// Device scratch for the kernels, grown on demand (rarely: it is capped by
// the callers). Call with ex->mu held; the memory is ordered on ex->stream.
void* exec_workspace(Exec* ex, size_t bytes);
// Destroys ex's cuDNN handle, if it has one (cudnn_conv.cu; Note [Teardown]).
void release_cudnn(Exec* ex);
// Every exec create_exec made and every allocator create_allocator made, for
// release_libraries (Note [Teardown] in runtime.cpp).
struct Owned {
  std::mutex mu;
  std::vector<Exec*> execs;
  std::vector<Allocator*> allocators;
};
Owned& owned();

}  // namespace gl::cuda
