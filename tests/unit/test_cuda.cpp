// The CUDA backend (tensor/runtime/cuda_api.h) tested directly, without the
// ops layer: discovery, the caching allocator, ordered copies and events.
// Kernels: test_cuda_kernels.cpp; edge cases: test_cuda_edges.cpp. Without a
// GPU each case says so and returns (decided at run time).
#include "cuda_util.h"

using namespace gl;
using namespace gl::cuda_test;

TEST_CASE("cuda: discovery and properties") {
#ifdef GPULAB_HAVE_CUDA  // the build's choice reaches the run-time answer
  CHECK(cuda::compiled());
#else
  CHECK(!cuda::compiled());
#endif
  if (!have_gpu()) {
    CHECK(!cuda::unavailable_reason().empty());
    return;
  }
  auto p = cuda::properties(0);
  CHECK(!p.name.empty());
  CHECK(p.total_memory > 0);
  CHECK(p.multi_processor_count > 0);
  int64_t free_b = 0, total_b = 0;
  cuda::mem_get_info(0, &free_b, &total_b);
  CHECK(total_b > 0);
  CHECK(free_b <= total_b);
  CHECK_THROWS_AS(cuda::properties(cuda::device_count()), RuntimeError);
  cuda::SmiRow row;
  if (cuda::smi_query(0, &row)) CHECK(row.total > 0);
}

TEST_CASE("cuda: caching allocator reuses blocks and keeps stats") {
  if (!have_gpu()) return;
  Allocator* a = cuda::create_allocator(0, 0, 0);
  void* p = a->allocate(4000);  // rounded to 4096
  AllocStats s1 = a->stats();
  CHECK(s1.allocated == 4096);
  CHECK(s1.num_os_allocs == 1);
  CHECK(s1.reserved >= 4096);
  a->deallocate(p, 4000);
  CHECK(a->stats().allocated == 0);
  void* q = a->allocate(4000);
  CHECK(q == p);
  CHECK(a->stats().num_os_allocs == s1.num_os_allocs);
  // Small blocks share a segment; large ones come back too.
  void* r = a->allocate(100);
  CHECK(a->stats().num_os_allocs == s1.num_os_allocs);
  void* big = a->allocate(3 << 20);
  const int64_t os = a->stats().num_os_allocs;
  a->deallocate(big, 3 << 20);
  void* big2 = a->allocate(3 << 20);
  CHECK(big2 == big);
  CHECK(a->stats().num_os_allocs == os);
  a->deallocate(big2, 3 << 20);
  a->deallocate(r, 100);
  a->deallocate(q, 4000);
  AllocStats s2 = a->stats();
  CHECK(s2.allocated == 0);
  CHECK(s2.peak_allocated >= 4096 + (3 << 20));
  CHECK(s2.reserved > 0);
  a->reset_peak();
  CHECK(a->stats().peak_allocated == 0);
  a->empty_cache();
  CHECK(a->stats().reserved == 0);
  // After emptying the cache, memory comes from the driver again.
  void* t = a->allocate(512);
  CHECK(a->stats().num_os_allocs == os + 1);
  a->deallocate(t, 512);
}

TEST_CASE("cuda: capacity-limited allocator raises PyTorch's out-of-memory error") {
  if (!have_gpu()) return;
  Allocator* a = cuda::create_allocator(0, int64_t(24) << 20, 1);
  void* p = a->allocate(size_t(4) << 20);  // a 20 MiB segment, 16 MiB of it left over
  CHECK(p != nullptr);
  bool threw = false;
  try {
    a->allocate(size_t(18) << 20);  // more than the leftover: an 18 MiB segment, 38 MiB > 24
  } catch (const OutOfMemoryError& e) {
    threw = true;
    const std::string msg = e.what();
    CHECK(msg.find("CUDA out of memory. Tried to allocate 18.00 MiB. GPU 1 has a total capacity of 24.00 MiB") == 0);
  }
  CHECK(threw);
  CHECK(a->stats().reserved <= (int64_t(24) << 20));
  a->deallocate(p, size_t(4) << 20);
  // Freed memory serves a request that fits.
  void* q = a->allocate(size_t(6) << 20);
  CHECK(q != nullptr);
  a->deallocate(q, size_t(6) << 20);
  a->empty_cache();
}

TEST_CASE("cuda: memcpy round trips host -> device -> device -> host") {
  if (!have_gpu()) return;
  void* other = cuda::create_exec(0);  // a second stream on the same device (virtual slices)
  for (int64_t n : kSizes) {
    HostArr h = random_arr(DType::Float32, n);
    DevArr d1(h), d2(DType::Float32, n), d3(DType::Float32, n);
    cuda::memcpy(d2.p, gpu().exec, d1.p, gpu().exec, d1.nbytes);
    cuda::memcpy(d3.p, other, d2.p, gpu().exec, d2.nbytes);
    HostArr back(DType::Float32, n);
    cuda::memcpy(back.data(), nullptr, d3.p, other, d3.nbytes);
    CHECK(std::memcmp(back.data(), h.data(), d1.nbytes) == 0);
  }
  cuda::synchronize(other);
}

TEST_CASE("cuda: events time work on the stream") {
  if (!have_gpu()) return;
  void* a = cuda::event_create(true);
  void* b = cuda::event_create(true);
  void* untimed = cuda::event_create(false);
  CHECK_THROWS_AS(cuda::event_elapsed_ms(a, untimed), ValueError);
  CHECK_THROWS_AS(cuda::event_elapsed_ms(a, b), ValueError);  // not recorded yet
  cuda::event_record(a, gpu().exec);
  {
    HostArr h = random_arr(DType::Float32, 1 << 20);
    DevArr d(h);
    gpu().k->fill(gpu().exec, flat_loop(d.n, {{d.p, d.dt}}), Scalar::from_double(1.0));
  }
  cuda::event_record(b, gpu().exec);
  cuda::event_synchronize(b);
  CHECK(cuda::event_query(b));
  CHECK(cuda::event_elapsed_ms(a, b) >= 0);
  cuda::event_destroy(a);
  cuda::event_destroy(b);
  cuda::event_destroy(untimed);
}
