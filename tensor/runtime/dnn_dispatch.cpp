// Which library runs a device's convolutions and pooling: the host's (oneDNN)
// wherever the memory is the host's (the CPU and virtual CUDA devices), cuDNN
// on a GPU (tensor/kernels/cuda/cudnn_*.cpp, loaded on first use).
#include "tensor/core/error.h"
#include "tensor/kernels/dnn.h"
#include "tensor/runtime/registry.h"

namespace gl {
#ifdef GPULAB_HAVE_CUDA
namespace cuda {
const DnnKernels& dnn_kernels();
}
#endif

const DnnKernels& dnn_kernels_for(Device d) {
  const DeviceSlot& s = slot_for(d);
  if (s.host_memory) return cpu_dnn_kernels();
#ifdef GPULAB_HAVE_CUDA
  return cuda::dnn_kernels();
#else
  throw RuntimeError("gpulab: this build has no CUDA backend for convolutions");
#endif
}

void* dnn_exec_for(Device d) { return slot_for(d).exec; }

}  // namespace gl
