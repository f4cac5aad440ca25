// c10's DeviceGuard for the physical CUDA layer: makes GPU `phys` current on
// the calling thread for the guard's scope and restores the previous device
// when it ends, so that no call leaves another device current behind it. The
// only way gpulab changes the current device. gpulab_cuda implements it
// (runtime.cpp); cuda_stub.cpp makes it a no-op. Nothing here includes CUDA
// headers, so host code (tensor/dist/nccl_group.cpp) uses it too.
#pragma once

namespace gl::cuda {

class DeviceGuard {
 public:
  explicit DeviceGuard(int phys);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = -1;  // -1: nothing to restore
};

}  // namespace gl::cuda
