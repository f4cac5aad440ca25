// Host memory allocators: the CPU's, and the one behind each virtual CUDA
// device emulated in host memory (same code, with a capacity and the CUDA
// out-of-memory message, so lessons about memory behave as on a GPU).
#pragma once
#include <mutex>
#include "tensor/runtime/allocator.h"

namespace gl {

class HostAllocator final : public Allocator {
 public:
  // capacity 0: unlimited (the CPU). Otherwise a virtual device `index`.
  explicit HostAllocator(int64_t capacity = 0, int index = -1) : capacity_(capacity), index_(index) {}
  void* allocate(size_t nbytes) override;
  void deallocate(void* p, size_t nbytes) override;
  AllocStats stats() const override;
  void reset_peak() override;
  int64_t capacity() const { return capacity_; }

 private:
  mutable std::mutex mu_;
  AllocStats st_;
  int64_t capacity_;
  int index_;
};

// The message PyTorch's caching allocator raises, shared with the CUDA one.
std::string oom_message(int device, int64_t requested, int64_t capacity, int64_t free_bytes,
                        int64_t allocated, int64_t reserved_unallocated);

}  // namespace gl
