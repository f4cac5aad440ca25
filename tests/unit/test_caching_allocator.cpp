// The CUDA caching allocator's logic over host memory: a fake segment source
// with a capacity stands in for cudaMalloc, so pools, splitting, merging,
// stats, empty_cache and the out-of-memory path are checked without a GPU.
#include <doctest/doctest.h>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include "tensor/core/error.h"
#include "tensor/runtime/caching_allocator.h"

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
  a.deallocate(p, 40 * MiB);  // cached, 40 MiB reserved
  void* q = a.allocate(50 * MiB);  // fails at first; succeeds once the cache is released
  CHECK(q != nullptr);
  CHECK(src.frees == 1);
  CHECK(a.stats().reserved == int64_t(50 * MiB));
  // 14 MiB free: 20 MiB cannot fit, even after releasing the (empty) cache
  void* r = nullptr;
  CHECK_THROWS_AS(r = a.allocate(20 * MiB), OutOfMemoryError);
  void* t = a.allocate(6 * MiB);  // a 20 MiB segment doesn't fit; a 6 MiB one does
  CHECK(t != nullptr);
  CHECK(a.stats().reserved == int64_t(56 * MiB));
  try {
    a.allocate(20 * MiB);
    FAIL("expected OutOfMemoryError");
  } catch (const OutOfMemoryError& e) {
    const std::string m = e.what();
    CHECK(m.find("CUDA out of memory. Tried to allocate 20.00 MiB. GPU 3 has a total capacity of 64.00 MiB of which "
                 "8.00 MiB is free.") == 0);
    CHECK(m.find("Of the allocated memory 56.00 MiB is allocated by PyTorch, and 0 bytes is reserved by PyTorch but "
                 "unallocated.") != std::string::npos);
  }
  a.deallocate(q, 50 * MiB);
  a.deallocate(t, 6 * MiB);
  (void)r;
}

TEST_CASE("caching allocator: a capacity caps reserved memory (virtual slices of one GPU)") {
  FakeSegments src(int64_t(1) << 40);
  CachingAllocator a(&src, int64_t(3 * MiB), 1);
  void* s = a.allocate(1000);  // 2 MiB small segment
  void* l = nullptr;
  CHECK_THROWS_AS(l = a.allocate(2 * MiB), OutOfMemoryError);  // 2 + 2 > 3
  void* t = a.allocate(512 * 1024);  // still room in the small segment
  CHECK(a.stats().reserved == int64_t(2 * MiB));
  a.deallocate(s, 1000);
  a.deallocate(t, 512 * 1024);
  l = a.allocate(2 * MiB + 512 * 1024);  // releases the cached small segment, takes a tight one
  CHECK(l != nullptr);
  CHECK(a.stats().reserved == int64_t(2 * MiB + 512 * 1024));
  a.deallocate(l, 2 * MiB + 512 * 1024);
  a.deallocate(reinterpret_cast<void*>(0x1234), 8);  // not ours: ignored
  CHECK(a.stats().allocated == 0);
}
