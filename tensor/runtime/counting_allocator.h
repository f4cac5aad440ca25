// The counters every allocator keeps, in one MemoryStats under one mutex:
// the host allocator fills the all-pools entries it has (allocation,
// allocated_bytes, reserved_bytes, num_device_alloc/free), the caching
// allocator every entry. The summary (stats) and the resets are written once
// (counting_allocator.cpp).
#pragma once
#include <mutex>
#include "tensor/runtime/allocator.h"

namespace gl {

class CountingAllocator : public Allocator {
 public:
  AllocStats stats() const final;
  MemoryStats memory_stats() const final;  // PyTorch's full statistics (torch.cuda.memory_stats)
  void reset_peak() final;                 // every peak back to its current value
  void reset_accumulated() final;          // the allocated/freed totals and the counters to zero

 protected:
  mutable std::mutex mu_;
  MemoryStats st_;
};

}  // namespace gl
