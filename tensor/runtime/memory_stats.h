// The statistics PyTorch's CUDA caching allocator keeps (torch.cuda.memory_stats):
// each Stat has a current value, its peak, and the totals ever added and taken
// away, split by pool (all / large_pool / small_pool).
#pragma once
#include <cstdint>

namespace gl {

struct Stat {
  int64_t current = 0, peak = 0, allocated = 0, freed = 0;
  void add(int64_t n) {
    current += n;
    if (current > peak) peak = current;
    allocated += n;
  }
  void sub(int64_t n) {
    current -= n;
    freed += n;
  }
};

enum PoolStat { kAllPools = 0, kLargePool = 1, kSmallPool = 2, kPoolStats = 3 };

struct MemoryStats {
  Stat allocation[kPoolStats];      // live allocations
  Stat segment[kPoolStats];         // segments from the device (cudaMalloc)
  Stat active[kPoolStats];          // blocks in use
  Stat inactive_split[kPoolStats];  // free blocks inside a partly used segment
  Stat allocated_bytes[kPoolStats];
  Stat reserved_bytes[kPoolStats];
  Stat active_bytes[kPoolStats];
  Stat inactive_split_bytes[kPoolStats];  // "Non-releasable memory"
  Stat requested_bytes[kPoolStats];       // as asked for, before rounding
  Stat oversize_allocations, oversize_segments;
  int64_t num_alloc_retries = 0, num_ooms = 0, num_sync_all_streams = 0;
  int64_t num_device_alloc = 0, num_device_free = 0;
  int64_t max_split_size = -1;  // SIZE_MAX as PyTorch reports it: no limit
};

}  // namespace gl
