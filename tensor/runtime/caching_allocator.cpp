// See caching_allocator.h.
#include "tensor/runtime/caching_allocator.h"
#include "tensor/core/error.h"
#include "tensor/runtime/host_allocator.h"

namespace gl {

namespace {
constexpr size_t kRound = 512;
constexpr size_t kSmallSize = size_t(1) << 20;     // largest small-pool request
constexpr size_t kSmallBuffer = size_t(2) << 20;   // small-pool segment
constexpr size_t kMinLargeAlloc = size_t(10) << 20;
constexpr size_t kLargeBuffer = size_t(20) << 20;  // segment for 1-10 MiB requests
constexpr size_t kRoundLarge = size_t(2) << 20;

size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }
}  // namespace

struct CachingAllocator::Block {
  char* ptr = nullptr;
  size_t size = 0;
  bool allocated = false;
  bool small = false;
  Block* prev = nullptr;  // neighbours inside one segment
  Block* next = nullptr;
};

namespace {
// `a` takes over the bytes of its right neighbour in the segment, which goes.
void absorb_next(CachingAllocator::Block* a) {
  CachingAllocator::Block* n = a->next;
  a->size += n->size;
  a->next = n->next;
  if (n->next) n->next->prev = a;
  delete n;
}
}  // namespace

bool CachingAllocator::BySize::operator()(const Block* a, const Block* b) const {
  return a->size != b->size ? a->size < b->size : a->ptr < b->ptr;
}

CachingAllocator::~CachingAllocator() {
  for (Pool* pool : {&small_, &large_})
    for (Block* b : *pool) delete b;
  for (auto& [p, b] : live_) delete b;
}

void* CachingAllocator::allocate(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  const size_t size = round_up(nbytes, kRound);
  std::lock_guard<std::mutex> g(mu_);
  st_.num_allocs++;
  const bool small = size <= kSmallSize;
  Pool& pool = small ? small_ : large_;
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

void CachingAllocator::deallocate(void* p, size_t) {
  if (!p) return;
  std::lock_guard<std::mutex> g(mu_);
  auto it = live_.find(p);
  if (it == live_.end()) return;  // not ours: never throw from a destructor's path
  Block* b = it->second;
  live_.erase(it);
  b->allocated = false;
  st_.allocated -= int64_t(b->size);
  Pool& pool = b->small ? small_ : large_;
  if (Block* n = b->next; n && !n->allocated) {
    pool.erase(n);
    absorb_next(b);
  }
  if (Block* pr = b->prev; pr && !pr->allocated) {
    pool.erase(pr);
    absorb_next(pr);
    b = pr;
  }
  pool.insert(b);
}

AllocStats CachingAllocator::stats() const {
  std::lock_guard<std::mutex> g(mu_);
  return st_;
}

void CachingAllocator::reset_peak() {
  std::lock_guard<std::mutex> g(mu_);
  st_.peak_allocated = st_.allocated;
  st_.peak_reserved = st_.reserved;
}

void CachingAllocator::empty_cache() {
  std::lock_guard<std::mutex> g(mu_);
  release_cached();
}

// Smallest cached block of at least `size` bytes, removed from the pool.
CachingAllocator::Block* CachingAllocator::take(Pool& pool, size_t size) {
  Block key;
  key.size = size;
  key.ptr = nullptr;
  auto it = pool.lower_bound(&key);
  if (it == pool.end()) return nullptr;
  Block* b = *it;
  pool.erase(it);
  return b;
}

// Gives every wholly free segment back to the source. Blocks in the pools may
// still be read by queued kernels, so wait for the device first.
void CachingAllocator::release_cached() {
  bool synced = false;
  for (Pool* pool : {&small_, &large_}) {
    for (auto it = pool->begin(); it != pool->end();) {
      Block* b = *it;
      if (b->prev || b->next) {
        ++it;
        continue;
      }
      if (!synced) {
        src_->synchronize();
        synced = true;
      }
      src_->free(b->ptr);
      st_.reserved -= int64_t(b->size);
      it = pool->erase(it);
      delete b;
    }
  }
}

void CachingAllocator::oom(size_t size) {
  int64_t total = capacity_, free_bytes = capacity_ - st_.reserved;
  if (capacity_ <= 0) src_->mem_info(&free_bytes, &total);
  if (free_bytes < 0) free_bytes = 0;
  throw OutOfMemoryError(oom_message(index_, int64_t(size), total, free_bytes, st_.allocated,
                                     st_.reserved - st_.allocated));
}

CachingAllocator::Block* CachingAllocator::new_segment(size_t size, bool small) {
  size_t seg = small ? kSmallBuffer : size < kMinLargeAlloc ? kLargeBuffer : round_up(size, kRoundLarge);
  if (!fits(seg)) {
    release_cached();
    if (!fits(seg)) seg = size;  // a tight segment is better than none near the cap
    if (!fits(seg)) oom(size);
  }
  void* p = src_->alloc(seg);
  if (!p) {
    release_cached();
    p = src_->alloc(seg);
    if (!p && seg > size) {
      seg = size;
      p = src_->alloc(seg);
    }
    if (!p) oom(size);
  }
  st_.num_os_allocs++;
  st_.reserved += int64_t(seg);
  if (st_.reserved > st_.peak_reserved) st_.peak_reserved = st_.reserved;
  Block* b = new Block;
  b->ptr = static_cast<char*>(p);
  b->size = seg;
  b->small = small;
  return b;
}

}  // namespace gl
