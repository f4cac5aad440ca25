// The counters both allocators share (Allocator::stats, reset_peak,
// reset_accumulated in runtime/allocator.cpp): the host allocator and the
// caching allocator over host segments report the same way.
#include <doctest/doctest.h>
#include <memory>
#include "tensor/runtime/caching_allocator.h"
#include "tensor/runtime/host_allocator.h"

using namespace gl;

namespace {

// Allocates 1000 and 3000 bytes, frees the second, and checks what every
// allocator reports the same way.
void check_counters(Allocator& a) {
  const AllocStats s0 = a.stats();
  void* p = a.allocate(1000);
  void* q = a.allocate(3000);
  AllocStats s = a.stats();
  CHECK(s.allocated - s0.allocated >= 4000);
  CHECK(s.peak_allocated >= s.allocated);
  CHECK(s.reserved >= s.allocated);
  CHECK(s.num_allocs == s0.num_allocs + 2);
  a.deallocate(q, 3000);
  const int64_t high = s.allocated;
  s = a.stats();
  CHECK(s.allocated < high);
  CHECK(s.peak_allocated == high);  // the peak stays until reset_peak
  a.reset_peak();
  s = a.stats();
  CHECK(s.peak_allocated == s.allocated);
  CHECK(s.peak_reserved == s.reserved);
  a.reset_accumulated();
  CHECK(a.stats().num_allocs == 0);
  CHECK(a.memory_stats().allocated_bytes[kAllPools].current == a.stats().allocated);
  a.deallocate(p, 1000);
  a.empty_cache();
  CHECK(a.stats().allocated == s0.allocated);
}

}  // namespace

TEST_CASE("allocator stats: the host allocator") {
  HostAllocator h;
  check_counters(h);
  CHECK(h.stats().reserved == 0);  // empty_cache gave every block back
}

TEST_CASE("allocator stats: the caching allocator over host segments") {
  CachingAllocator c(host_segments(), 0, 0);
  check_counters(c);
  CHECK(c.stats().reserved == 0);
}

// Note [Large host blocks]: a freed block past 64 KiB comes back for the next
// request of the same rounded size, without the system; empty_cache frees it.
TEST_CASE("host allocator: large blocks are kept and handed out again") {
  HostAllocator h;
  const size_t n = 26 << 20;  // a 32x64x56x56 float32 activation is 25.7 MB
  void* p = h.allocate(n);
  const AllocStats s1 = h.stats();
  CHECK(s1.num_os_allocs == 1);
  CHECK(s1.reserved >= int64_t(n));
  CHECK(s1.reserved <= int64_t(n + n / 8));  // rounded up by at most an eighth
  h.deallocate(p, n);
  CHECK(h.stats().reserved == s1.reserved);  // kept
  void* q = h.allocate(n - 4096);            // the same rounded size
  CHECK(q == p);
  CHECK(h.stats().num_os_allocs == 1);
  void* r = h.allocate(2 * n);  // another size: from the system
  CHECK(h.stats().num_os_allocs == 2);
  h.deallocate(q, n - 4096);
  h.deallocate(r, 2 * n);
  void* big = h.allocate(size_t(100) << 20);  // past 64 MiB: not kept
  const int64_t before = h.stats().reserved;
  h.deallocate(big, size_t(100) << 20);
  CHECK(h.stats().reserved < before);
  h.empty_cache();
  CHECK(h.stats().reserved == 0);
  CHECK(h.stats().allocated == 0);
}
