// The CPU's allocator. (Virtual CUDA devices emulated in host memory use the
// CUDA caching allocator over host segments instead: caching_allocator.h.)
// Small blocks are cached in power-of-two size classes: the per-op path of
// tiny tensors then never reaches malloc (see bench/README.md). Large ones are
// kept too, within a budget (Note [Large host blocks]).
#pragma once
#include <mutex>
#include <unordered_map>
#include <vector>
#include "tensor/runtime/counting_allocator.h"

namespace gl {

class HostAllocator final : public CountingAllocator {
 public:
  HostAllocator() = default;
  ~HostAllocator() override;
  void* allocate(size_t nbytes) override;
  void deallocate(void* p, size_t nbytes) override;
  void empty_cache() override;

 private:
  static constexpr int kClasses = 11;       // 64 B ... 64 KiB
  static constexpr size_t kMaxCached = 64;  // blocks kept per class
  std::vector<void*> cache_[kClasses];
  std::unordered_map<size_t, std::vector<void*>> large_;  // by block size
  size_t large_bytes_ = 0, large_budget_ = 0;
};

// The message PyTorch's caching allocator raises; `processes` is what NVML
// says of the processes on a GPU (SegmentSource::process_report), or empty.
std::string oom_message(int device, int64_t requested, int64_t capacity, int64_t free_bytes, int64_t allocated,
                        int64_t reserved_unallocated, const std::string& processes = {});

}  // namespace gl
