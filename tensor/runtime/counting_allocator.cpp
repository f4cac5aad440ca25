// The counters every allocator shares (counting_allocator.h): summary and resets.
#include "tensor/runtime/counting_allocator.h"

namespace gl {

namespace {
// Calls f on every Stat of s.
template <class S, class F> void each_stat(S& s, F&& f) {
  for (auto* a : {s.allocation, s.segment, s.active, s.inactive_split, s.allocated_bytes, s.reserved_bytes,
                  s.active_bytes, s.inactive_split_bytes, s.requested_bytes})
    for (int t = 0; t < kPoolStats; ++t) f(a[t]);
  f(s.oversize_allocations);
  f(s.oversize_segments);
}
}  // namespace

AllocStats CountingAllocator::stats() const {
  std::lock_guard<std::mutex> g(mu_);
  AllocStats s;
  s.allocated = st_.allocated_bytes[kAllPools].current;
  s.peak_allocated = st_.allocated_bytes[kAllPools].peak;
  s.reserved = st_.reserved_bytes[kAllPools].current;
  s.peak_reserved = st_.reserved_bytes[kAllPools].peak;
  s.num_allocs = st_.allocation[kAllPools].allocated;
  s.num_os_allocs = st_.num_device_alloc;
  return s;
}

MemoryStats CountingAllocator::memory_stats() const {
  std::lock_guard<std::mutex> g(mu_);
  return st_;
}

void CountingAllocator::reset_peak() {
  std::lock_guard<std::mutex> g(mu_);
  each_stat(st_, [](Stat& s) { s.peak = s.current; });
}

void CountingAllocator::reset_accumulated() {
  std::lock_guard<std::mutex> g(mu_);
  each_stat(st_, [](Stat& s) { s.allocated = s.freed = 0; });
  st_.num_alloc_retries = st_.num_ooms = st_.num_sync_all_streams = 0;
  st_.num_device_alloc = st_.num_device_free = 0;
}

}  // namespace gl
