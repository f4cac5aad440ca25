// Host memory allocators: the CPU's, and the one behind each virtual CUDA
// device emulated in host memory (same code, with a capacity and the CUDA
// out-of-memory message, so lessons about memory behave as on a GPU).
// Small blocks are cached in power-of-two size classes: the per-op path of
// tiny tensors then never reaches malloc (see bench/README.md).
#pragma once
#include <mutex>
#include <vector>
#include "tensor/runtime/allocator.h"

namespace gl {

class HostAllocator final : public Allocator {
 public:
  // capacity 0: unlimited (the CPU). Otherwise a virtual device `index`.
  explicit HostAllocator(int64_t capacity = 0, int index = -1) : capacity_(capacity), index_(index) {}
  ~HostAllocator() override;
  void* allocate(size_t nbytes) override;
  void deallocate(void* p, size_t nbytes) override;
  AllocStats stats() const override;
  void reset_peak() override;
  void empty_cache() override;
  int64_t capacity() const { return capacity_; }

 private:
  static constexpr int kClasses = 11;  // 64 B ... 64 KiB
  static constexpr size_t kMaxCached = 64;  // blocks kept per class
  mutable std::mutex mu_;
  AllocStats st_;
  int64_t capacity_;
  int index_;
  std::vector<void*> cache_[kClasses];
};

// The message PyTorch's caching allocator raises, shared with the CUDA one.
std::string oom_message(int device, int64_t requested, int64_t capacity, int64_t free_bytes,
                        int64_t allocated, int64_t reserved_unallocated);

}  // namespace gl
