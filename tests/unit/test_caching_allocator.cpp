// The CUDA caching allocator's logic over host memory: a fake segment source
// with a capacity stands in for cudaMalloc, so pools, splitting, merging,
// stats, empty_cache and the out-of-memory path are checked without a GPU.
#include <doctest/doctest.h>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include "tensor/core/error.h"
#include "tensor/runtime/caching_allocator.h"
#include "tensor/runtime/memory_pressure.h"

using namespace gl;

namespace {

constexpr size_t MiB = size_t(1) << 20;

struct FakeSegments final : SegmentSource {
  int64_t capacity;
  int64_t used = 0;
  int allocs = 0, frees = 0, syncs = 0;
  std::unordered_map<void*, size_t> live;
  explicit FakeSegments(int64_t cap) : capacity(cap) {}
  ~FakeSegments() override {
    for (auto& [p, n] : live) std::free(p);
  }
  void* alloc(size_t bytes) override {
    if (used + int64_t(bytes) > capacity) return nullptr;
    void* p = std::malloc(bytes);
    live[p] = bytes;
    used += int64_t(bytes);
    ++allocs;
    return p;
  }
  void free(void* p) override {
    used -= int64_t(live.at(p));
    live.erase(p);
    std::free(p);
    ++frees;
  }
  void synchronize() override { ++syncs; }
  void mem_info(int64_t* f, int64_t* t) override {
    *f = capacity - used;
    *t = capacity;
  }
};

}  // namespace

TEST_CASE("caching allocator: 512-byte rounding, small blocks share a 2 MiB segment, reuse") {
  FakeSegments src(int64_t(1) << 40);
  CachingAllocator a(&src, 0, 0);
  void* p = a.allocate(4000);  // 4096
  CHECK(a.stats().allocated == 4096);
  CHECK(a.stats().reserved == int64_t(2 * MiB));
  void* q = a.allocate(1);  // 512, carved from the same segment
  CHECK(static_cast<char*>(q) == static_cast<char*>(p) + 4096);
  CHECK(src.allocs == 1);
  a.deallocate(p, 4000);
  CHECK(a.stats().allocated == 512);
  CHECK(a.allocate(4096) == p);  // the freed block comes back: no new segment
  CHECK(src.allocs == 1);
  CHECK(a.stats().num_allocs == 3);
  CHECK(a.stats().num_os_allocs == 1);
  a.deallocate(p, 4096);
  a.deallocate(q, 1);
  CHECK(a.stats().allocated == 0);
  CHECK(a.allocate(0) == nullptr);
}

TEST_CASE("caching allocator: large pools, segment sizes, splitting and merging") {
  FakeSegments src(int64_t(1) << 40);
  CachingAllocator a(&src, 0, 0);
  void* x = a.allocate(3 * MiB);  // 1-10 MiB: from a 20 MiB segment
  CHECK(a.stats().reserved == int64_t(20 * MiB));
  void* y = a.allocate(5 * MiB);  // the rest of it (17 MiB) is split again
  CHECK(static_cast<char*>(y) == static_cast<char*>(x) + 3 * MiB);
  CHECK(src.allocs == 1);
  void* u = a.allocate(11 * MiB + 1);  // fits the 12 MiB rest: no new segment
  CHECK(static_cast<char*>(u) == static_cast<char*>(y) + 5 * MiB);
  CHECK(src.allocs == 1);
  a.deallocate(u, 11 * MiB + 1);
  void* z = a.allocate(13 * MiB);  // >= 10 MiB and no cached block: its own segment, rounded to 2 MiB
  CHECK(a.stats().reserved == int64_t(20 * MiB + 14 * MiB));
  CHECK(src.allocs == 2);
  // Freed neighbours merge: x and y free -> one 20 MiB block, which takes a 19 MiB request.
  a.deallocate(x, 3 * MiB);
  a.deallocate(y, 5 * MiB);
  void* w = a.allocate(19 * MiB);
  CHECK(w == x);
  CHECK(src.allocs == 2);
  // A 1 MiB rest is not split off a large block (PyTorch keeps > 1 MiB rests only).
  a.deallocate(w, 19 * MiB);
  void* v = a.allocate(19 * MiB + 512);
  CHECK(v == x);
  CHECK(a.stats().allocated == int64_t(20 * MiB + 14 * MiB));  // the whole 20 MiB block counts as allocated
  a.deallocate(v, 19 * MiB + 512);
  a.deallocate(z, 13 * MiB);
  CHECK(a.stats().allocated == 0);
  CHECK(a.stats().peak_allocated == int64_t(20 * MiB + 14 * MiB));
}

TEST_CASE("caching allocator: empty_cache gives whole free segments back, after a synchronize") {
  FakeSegments src(int64_t(1) << 40);
  CachingAllocator a(&src, 0, 0);
  void* s1 = a.allocate(1000);
  void* s2 = a.allocate(1000);
  void* big = a.allocate(30 * MiB);
  a.deallocate(big, 30 * MiB);
  a.deallocate(s1, 1000);  // s2 still holds the small segment
  a.empty_cache();
  CHECK(src.syncs == 1);
  CHECK(src.frees == 1);
  CHECK(a.stats().reserved == int64_t(2 * MiB));
  a.deallocate(s2, 1000);
  a.empty_cache();
  CHECK(a.stats().reserved == 0);
  CHECK(src.used == 0);
  a.reset_peak();
  CHECK(a.stats().peak_allocated == 0);
  CHECK(a.stats().peak_reserved == 0);
}

TEST_CASE("caching allocator: out of memory frees the cache, retries, then raises PyTorch's error") {
  FakeSegments src(int64_t(64 * MiB));
  CachingAllocator a(&src, 0, 3);
  void* p = a.allocate(40 * MiB);
  a.deallocate(p, 40 * MiB);       // cached, 40 MiB reserved
  void* q = a.allocate(50 * MiB);  // fails at first; succeeds once the cache is released
  CHECK(q != nullptr);
  CHECK(src.frees == 1);
  CHECK(a.stats().reserved == int64_t(50 * MiB));
  CHECK(a.memory_stats().num_alloc_retries == 1);
  CHECK(a.memory_stats().num_device_free == 1);
  // 14 MiB free: a 20 MiB segment cannot fit, even after releasing the (empty) cache
  void* r = nullptr;
  CHECK_THROWS_AS(r = a.allocate(20 * MiB), OutOfMemoryError);
  CHECK(a.memory_stats().num_ooms == 1);
  // PyTorch asks for a whole 20 MiB segment for a 6 MiB request, and says so.
  try {
    a.allocate(6 * MiB);
    FAIL("expected OutOfMemoryError");
  } catch (const OutOfMemoryError& e) {
    const std::string m = e.what();
    CHECK(m.find("CUDA out of memory. Tried to allocate 20.00 MiB. GPU 3 has a total capacity of 64.00 MiB of which "
                 "14.00 MiB is free. Of the allocated memory 50.00 MiB is allocated by PyTorch, and 0 bytes is "
                 "reserved by PyTorch but unallocated. If reserved but unallocated memory is large") == 0);
  }
  void* t = a.allocate(MiB);  // small: a 2 MiB segment fits
  CHECK(a.stats().reserved == int64_t(52 * MiB));
  a.deallocate(q, 50 * MiB);
  a.deallocate(t, MiB);
  (void)r;
}

TEST_CASE("caching allocator: a capacity caps reserved memory (virtual devices, slices of one GPU)") {
  FakeSegments src(int64_t(1) << 40);
  CachingAllocator a(&src, int64_t(3 * MiB), 1);
  void* s = a.allocate(1000);  // 2 MiB small segment
  void* l = nullptr;
  CHECK_THROWS_AS(l = a.allocate(2 * MiB), OutOfMemoryError);  // needs a 20 MiB segment
  void* t = a.allocate(512 * 1024);                            // still room in the small segment
  CHECK(a.stats().reserved == int64_t(2 * MiB));
  a.deallocate(s, 1000);
  a.deallocate(t, 512 * 1024);
  l = a.allocate(MiB);  // the cached small segment serves it
  CHECK(src.allocs == 1);
  a.deallocate(l, MiB);
  CHECK_THROWS_AS(l = a.allocate(1536 * 1024), OutOfMemoryError);
  CHECK(a.stats().reserved == 0);  // the retry released the free small segment
  CHECK(a.memory_stats().num_alloc_retries == 2);
  a.deallocate(reinterpret_cast<void*>(0x1234), 8);  // not ours: ignored
  CHECK(a.stats().allocated == 0);
}

// The numbers below follow PyTorch's DeviceCachingAllocator step by step
// (round_size, get_allocation_size, should_split, alloc_found_block,
// free_block, release_cached_blocks), as torch.cuda.memory_stats() shows them.
TEST_CASE("caching allocator: PyTorch's statistics through allocations, frees and empty_cache") {
  FakeSegments src(int64_t(1) << 40);
  CachingAllocator a(&src, 0, 0);
  auto st = [&] { return a.memory_stats(); };
  void* x = a.allocate(24);  // torch.ones(2, 3): 512 bytes of a new 2 MiB segment
  CHECK(st().allocated_bytes[kAllPools].current == 512);
  CHECK(st().reserved_bytes[kAllPools].current == 2097152);
  CHECK(st().requested_bytes[kAllPools].current == 24);
  CHECK(st().inactive_split[kSmallPool].current == 1);
  CHECK(st().inactive_split_bytes[kSmallPool].current == 2097152 - 512);
  void* b = a.allocate(MiB);  // still small (<= 1 MiB): the segment's rest is split again
  CHECK(st().allocated_bytes[kSmallPool].current == 512 + 1048576);
  CHECK(st().inactive_split_bytes[kSmallPool].current == 2097152 - 512 - 1048576);
  CHECK(st().inactive_split[kSmallPool].current == 1);
  CHECK(src.allocs == 1);
  void* c = a.allocate(MiB + 1);  // large: 1049088 bytes from a new 20 MiB segment
  CHECK(st().allocated_bytes[kLargePool].current == 1049088);
  CHECK(st().reserved_bytes[kAllPools].current == 2097152 + 20971520);
  CHECK(st().inactive_split_bytes[kLargePool].current == 20971520 - 1049088);
  void* d = a.allocate(10 * MiB);  // from that segment's 19 MiB rest, split again
  CHECK(st().inactive_split_bytes[kLargePool].current == 20971520 - 1049088 - 10485760);
  CHECK(src.allocs == 2);
  void* e = a.allocate(12 * MiB);  // >= 10 MiB and nothing cached fits: its own 12 MiB segment
  CHECK(src.allocs == 3);
  CHECK(st().reserved_bytes[kAllPools].current == 35651584);
  CHECK(st().allocated_bytes[kAllPools].current == 25166848);
  CHECK(st().segment[kAllPools].current == 3);
  CHECK(st().allocation[kAllPools].current == 5);
  CHECK(st().active_bytes[kAllPools].current == 25166848);
  CHECK(st().requested_bytes[kAllPools].current == 24 + 1048576 + 1048577 + 10485760 + 12582912);
  a.deallocate(d, 10 * MiB);  // merges with the free rest behind it; c still holds the segment
  CHECK(st().allocated_bytes[kAllPools].current == 14681088);
  CHECK(st().inactive_split_bytes[kLargePool].current == 20971520 - 1049088);
  CHECK(st().inactive_split[kLargePool].current == 1);
  a.deallocate(c, MiB + 1);  // the 20 MiB segment is whole and free again
  CHECK(st().inactive_split[kLargePool].current == 0);
  CHECK(st().inactive_split_bytes[kLargePool].current == 0);
  CHECK(st().reserved_bytes[kAllPools].current == 35651584);  // freed blocks stay reserved
  a.empty_cache();                                            // gives back the free 20 MiB segment only
  CHECK(st().reserved_bytes[kAllPools].current == 2097152 + 12582912);
  CHECK(st().segment[kAllPools].current == 2);
  CHECK(st().num_device_free == 1);
  a.deallocate(x, 24);
  a.deallocate(b, MiB);
  CHECK(st().inactive_split[kSmallPool].current == 0);
  CHECK(st().allocated_bytes[kAllPools].current == 12582912);
  CHECK(st().allocated_bytes[kAllPools].peak == 25166848);
  CHECK(st().reserved_bytes[kAllPools].peak == 35651584);
  CHECK(st().allocation[kAllPools].allocated == 5);
  CHECK(st().allocation[kAllPools].freed == 4);
  CHECK(st().allocated_bytes[kAllPools].freed == 25166848 - 12582912);
  a.reset_peak();
  CHECK(st().allocated_bytes[kAllPools].peak == 12582912);
  CHECK(st().reserved_bytes[kAllPools].peak == 14680064);
  a.empty_cache();
  CHECK(st().reserved_bytes[kAllPools].current == 12582912);
  a.deallocate(e, 12 * MiB);
  a.empty_cache();
  CHECK(st().reserved_bytes[kAllPools].current == 0);
  CHECK(st().reserved_bytes[kAllPools].peak == 14680064);
  CHECK(st().num_sync_all_streams == 3);
  a.reset_accumulated();
  CHECK(st().allocation[kAllPools].allocated == 0);
  CHECK(st().num_device_free == 0);
}

namespace {
// Stands in for the Lua collector: tensors dropped but not yet collected, one
// young (a minor collection frees it) and one old (only a full one does).
struct Pending {
  CachingAllocator* a = nullptr;
  void* young = nullptr;
  size_t young_n = 0;
  void* old = nullptr;
  size_t old_n = 0;
  int young_runs = 0, full_runs = 0;
};
void collect_pending(void* ctx, Relief how) {
  auto* g = static_cast<Pending*>(ctx);
  (how == Relief::Young ? g->young_runs : g->full_runs)++;
  auto drop = [&](void*& p, size_t n) {
    if (p) g->a->deallocate(p, n);
    p = nullptr;
  };
  drop(g->young, g->young_n);
  if (how == Relief::Full) drop(g->old, g->old_n);
}
}  // namespace

TEST_CASE("caching allocator: garbage is collected before a new segment, and before out of memory") {
  FakeSegments src(int64_t(1) << 40);
  CachingAllocator a(&src, int64_t(40 * MiB), 0);
  Pending g{&a};
  add_memory_pressure_hook(collect_pending, &g);
  void* x = a.allocate(4 * MiB);  // a 20 MiB segment
  CHECK(g.young_runs == 1);       // nothing was cached: both collections ran, then the device was asked
  CHECK(g.full_runs == 1);
  void* y = a.allocate(MiB + 512);  // fits the cached rest: no collection
  CHECK(g.young_runs + g.full_runs == 2);
  a.deallocate(y, MiB + 512);
  g.old = x;  // `x = nil` long after x was made: dropped, and only a full collection frees it
  g.old_n = 4 * MiB;
  void* z = a.allocate(17 * MiB);  // nothing cached fits until x is collected; then the whole segment does
  CHECK(g.young_runs == 2);
  CHECK(g.full_runs == 2);
  CHECK(z == x);
  CHECK(src.allocs == 1);
  CHECK(a.stats().reserved == int64_t(20 * MiB));
  // At the capacity: a second 20 MiB segment would not fit, but collecting z frees the first.
  g.old = z;
  g.old_n = 17 * MiB;
  void* w = a.allocate(30 * MiB);  // 20 + 30 > 40: only after collecting and releasing
  CHECK(w != nullptr);
  CHECK(g.full_runs == 3);
  CHECK(a.stats().reserved == int64_t(30 * MiB));
  CHECK(a.memory_stats().num_ooms == 0);
  remove_memory_pressure_hook(&g);
  CHECK_FALSE(relieve_memory_pressure());
  a.deallocate(w, 30 * MiB);
}

TEST_CASE("caching allocator: young garbage first, so a loop's dropped result costs no full collection") {
  // Note [Young garbage first]: `for ... do local r = a + b end` with r too big
  // for two to share a segment.
  FakeSegments src(int64_t(1) << 40);
  CachingAllocator a(&src, int64_t(1) << 40, 0);
  Pending g{&a};
  add_memory_pressure_hook(collect_pending, &g);
  void* r = a.allocate(17 * MiB);
  const int full_before = g.full_runs;
  for (int i = 0; i < 5; ++i) {
    g.young = r;  // the previous result, dead and young
    g.young_n = 17 * MiB;
    void* next = a.allocate(17 * MiB);
    CHECK(next == r);  // its block, freed by the minor collection
    r = next;
  }
  CHECK(g.full_runs == full_before);
  CHECK(src.allocs == 1);
  remove_memory_pressure_hook(&g);
  a.deallocate(r, 17 * MiB);
}
