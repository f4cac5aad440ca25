// Device memory for the caching allocator (tensor/runtime/caching_allocator.h):
// cudaMalloc'd segments of one physical GPU. The per-op path never gets here;
// only a new segment, an empty_cache() or an out-of-memory retry does.
#include "tensor/runtime/caching_allocator.h"
#include "tensor/runtime/cuda/exec.h"
#include "tensor/runtime/cuda_api.h"

namespace gl::cuda {

namespace {

class CudaSegments final : public SegmentSource {
 public:
  explicit CudaSegments(int phys) : phys_(phys) {}
  void* alloc(size_t bytes) override {
    DeviceGuard device_guard(phys_);
    void* p = nullptr;
    cudaError_t e = cudaMalloc(&p, bytes);
    if (e == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();  // not sticky: the caller frees the cache and retries
      return nullptr;
    }
    check_cuda(e);
    return p;
  }
  void free(void* p) override {
    DeviceGuard device_guard(phys_);
    cudaFree(p);
    (void)cudaGetLastError();
  }
  void synchronize() override {
    DeviceGuard device_guard(phys_);
    check_cuda(cudaDeviceSynchronize());
  }
  void mem_info(int64_t* free_bytes, int64_t* total_bytes) override {
    size_t f = 0, t = 0;
    DeviceGuard device_guard(phys_);
    if (cudaMemGetInfo(&f, &t) != cudaSuccess) (void)cudaGetLastError();
    *free_bytes = int64_t(f);
    *total_bytes = int64_t(t);
  }
  std::string process_report() override { return smi_process_report(phys_); }

 private:
  int phys_;
};

}  // namespace

Allocator* create_allocator(int phys, int64_t capacity_limit, int logical_index) {
  if (phys < 0 || phys >= device_count()) throw_cuda(cudaErrorInvalidDevice);
  // Both live as long as the process, like the registry's slots.
  Allocator* a = new CachingAllocator(new CudaSegments(phys), capacity_limit, logical_index);
  std::lock_guard<std::mutex> g(owned().mu);
  owned().allocators.push_back(a);
  return a;
}

}  // namespace gl::cuda
