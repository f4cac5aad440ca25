// The CUDA caching allocator (after PyTorch's CUDACachingAllocator, much
// reduced). Device memory is taken from cudaMalloc in segments and carved
// into blocks; freed blocks go back to a pool instead of to the driver, so
// the per-op path never calls cudaMalloc or cudaFree.
//
// - Sizes are rounded up to 512 bytes.
// - Small requests (<= 1 MiB) are carved from 2 MiB segments; large ones from
//   20 MiB segments (below 10 MiB) or segments of their own size rounded up to
//   2 MiB. A block is split when the rest is worth keeping (any rest for the
//   small pool, more than 1 MiB for the large one); freed neighbours merge.
// - Stream-ordered reuse: each allocator belongs to one slot, whose kernels
//   all run on one stream, so a block freed on the host may be handed out
//   again at once: later work on that stream runs after earlier work that
//   still reads it. (Copies across slots make the source stream wait for the
//   copy, see runtime.cpp, so reuse stays safe there too.)
// - cudaMalloc failure: release cached segments and retry once, then throw
//   OutOfMemoryError with PyTorch's message. A capacity limit (virtual slices
//   of one GPU) refuses what would make reserved memory exceed it.
#include <mutex>
#include <set>
#include <unordered_map>
#include "tensor/core/error.h"
#include "tensor/runtime/cuda/exec.h"
#include "tensor/runtime/cuda_api.h"
#include "tensor/runtime/host_allocator.h"

namespace gl::cuda {

namespace {

constexpr size_t kRound = 512;
constexpr size_t kSmallSize = size_t(1) << 20;     // largest small-pool request
constexpr size_t kSmallBuffer = size_t(2) << 20;   // small-pool segment
constexpr size_t kMinLargeAlloc = size_t(10) << 20;
constexpr size_t kLargeBuffer = size_t(20) << 20;  // segment for 1-10 MiB requests
constexpr size_t kRoundLarge = size_t(2) << 20;

size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }

struct Block {
  char* ptr = nullptr;
  size_t size = 0;
  bool allocated = false;
  bool small = false;
  Block* prev = nullptr;  // neighbours inside one cudaMalloc segment
  Block* next = nullptr;
};

struct BySize {
  bool operator()(const Block* a, const Block* b) const {
    return a->size != b->size ? a->size < b->size : a->ptr < b->ptr;
  }
};

class CachingAllocator final : public Allocator {
 public:
  CachingAllocator(int phys, int64_t capacity, int index) : phys_(phys), capacity_(capacity), index_(index) {}
  // Allocators live as long as the process; at exit the CUDA runtime may be
  // gone already, so the destructor gives nothing back.
  ~CachingAllocator() override = default;

  void* allocate(size_t nbytes) override {
    if (nbytes == 0) return nullptr;
    const size_t size = round_up(nbytes, kRound);
    std::lock_guard<std::mutex> g(mu_);
    st_.num_allocs++;
    const bool small = size <= kSmallSize;
    auto& pool = small ? small_ : large_;
    Block* b = take(pool, size);
    if (!b) b = new_segment(size, small);
    // Split off the rest when it is worth keeping.
    const size_t rest = b->size - size;
    if (small ? rest >= kRound : rest > kSmallSize) {
      Block* r = new Block;
      r->ptr = b->ptr + size;
      r->size = rest;
      r->small = small;
      r->prev = b;
      r->next = b->next;
      if (b->next) b->next->prev = r;
      b->next = r;
      b->size = size;
      pool.insert(r);
    }
    b->allocated = true;
    live_.emplace(b->ptr, b);
    st_.allocated += int64_t(b->size);
    if (st_.allocated > st_.peak_allocated) st_.peak_allocated = st_.allocated;
    return b->ptr;
  }

  void deallocate(void* p, size_t) override {
    if (!p) return;
    std::lock_guard<std::mutex> g(mu_);
    auto it = live_.find(p);
    if (it == live_.end()) return;  // not ours: never throw from a destructor's path
    Block* b = it->second;
    live_.erase(it);
    b->allocated = false;
    st_.allocated -= int64_t(b->size);
    auto& pool = b->small ? small_ : large_;
    if (Block* n = b->next; n && !n->allocated) {
      pool.erase(n);
      b->size += n->size;
      b->next = n->next;
      if (n->next) n->next->prev = b;
      delete n;
    }
    if (Block* pr = b->prev; pr && !pr->allocated) {
      pool.erase(pr);
      pr->size += b->size;
      pr->next = b->next;
      if (b->next) b->next->prev = pr;
      delete b;
      b = pr;
    }
    pool.insert(b);
  }

  AllocStats stats() const override {
    std::lock_guard<std::mutex> g(mu_);
    return st_;
  }

  void reset_peak() override {
    std::lock_guard<std::mutex> g(mu_);
    st_.peak_allocated = st_.allocated;
    st_.peak_reserved = st_.reserved;
  }

  void empty_cache() override {
    std::lock_guard<std::mutex> g(mu_);
    release_cached();
  }

 private:
  // Smallest cached block of at least `size` bytes, removed from the pool.
  Block* take(std::set<Block*, BySize>& pool, size_t size) {
    Block key;
    key.size = size;
    key.ptr = nullptr;
    auto it = pool.lower_bound(&key);
    if (it == pool.end()) return nullptr;
    Block* b = *it;
    pool.erase(it);
    return b;
  }

  // Gives every wholly free segment back to the driver. Blocks in the pools
  // may still be read by queued kernels, so wait for the device first.
  void release_cached() {
    bool synced = false;
    for (auto* pool : {&small_, &large_}) {
      for (auto it = pool->begin(); it != pool->end();) {
        Block* b = *it;
        if (b->prev || b->next) {
          ++it;
          continue;
        }
        if (!synced) {
          set_device(phys_);
          check_cuda(cudaDeviceSynchronize());
          synced = true;
        }
        cudaFree(b->ptr);
        (void)cudaGetLastError();
        st_.reserved -= int64_t(b->size);
        it = pool->erase(it);
        delete b;
      }
    }
  }

  [[noreturn]] void oom(size_t size) {
    int64_t total = capacity_, free_bytes = capacity_ - st_.reserved;
    if (capacity_ <= 0) {
      size_t f = 0, t = 0;
      if (cudaMemGetInfo(&f, &t) != cudaSuccess) (void)cudaGetLastError();
      total = int64_t(t);
      free_bytes = int64_t(f);
    }
    if (free_bytes < 0) free_bytes = 0;
    throw OutOfMemoryError(oom_message(index_, int64_t(size), total, free_bytes, st_.allocated,
                                       st_.reserved - st_.allocated));
  }

  bool fits(size_t seg) const { return capacity_ <= 0 || st_.reserved + int64_t(seg) <= capacity_; }

  Block* new_segment(size_t size, bool small) {
    size_t seg = small ? kSmallBuffer : size < kMinLargeAlloc ? kLargeBuffer : round_up(size, kRoundLarge);
    set_device(phys_);
    if (!fits(seg)) {
      release_cached();
      if (!fits(seg)) seg = size;  // a tight segment is better than none near the cap
      if (!fits(seg)) oom(size);
    }
    void* p = nullptr;
    cudaError_t e = cudaMalloc(&p, seg);
    if (e == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      release_cached();
      set_device(phys_);
      e = cudaMalloc(&p, seg);
      if (e == cudaErrorMemoryAllocation && seg > size) {
        (void)cudaGetLastError();
        seg = size;
        e = cudaMalloc(&p, seg);
      }
      if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        oom(size);
      }
    }
    check_cuda(e);
    st_.num_os_allocs++;
    st_.reserved += int64_t(seg);
    if (st_.reserved > st_.peak_reserved) st_.peak_reserved = st_.reserved;
    Block* b = new Block;
    b->ptr = static_cast<char*>(p);
    b->size = seg;
    b->small = small;
    return b;
  }

  mutable std::mutex mu_;
  AllocStats st_;
  std::set<Block*, BySize> small_, large_;
  std::unordered_map<void*, Block*> live_;
  int phys_;
  int64_t capacity_;
  int index_;
};

}  // namespace

Allocator* create_allocator(int phys, int64_t capacity_limit, int logical_index) {
  if (phys < 0 || phys >= device_count()) throw_cuda(cudaErrorInvalidDevice);
  return new CachingAllocator(phys, capacity_limit, logical_index);
}

}  // namespace gl::cuda
