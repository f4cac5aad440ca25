// See caching_allocator.h. Names follow PyTorch's DeviceCachingAllocator where
// the logic is the same (round_size, get_allocation_size, should_split, ...).
#include "tensor/runtime/caching_allocator.h"
#include <cstdlib>
#include "tensor/core/error.h"
#include "tensor/runtime/host_allocator.h"
#include "tensor/runtime/memory_pressure.h"

namespace gl {

namespace {
constexpr size_t kMinBlockSize = 512;
constexpr size_t kSmallSize = size_t(1) << 20;    // largest small-pool request
constexpr size_t kSmallBuffer = size_t(2) << 20;  // small-pool segment
constexpr size_t kMinLargeAlloc = size_t(10) << 20;
constexpr size_t kLargeBuffer = size_t(20) << 20;  // segment for 1-10 MiB requests
constexpr size_t kRoundLarge = size_t(2) << 20;

size_t round_up(size_t n, size_t m) { return (n + m - 1) / m * m; }
size_t round_size(size_t n) { return n < kMinBlockSize ? kMinBlockSize : round_up(n, kMinBlockSize); }
size_t get_allocation_size(size_t size) {
  return size <= kSmallSize ? kSmallBuffer : size < kMinLargeAlloc ? kLargeBuffer : round_up(size, kRoundLarge);
}
}  // namespace

struct CachingAllocator::Block {
  char* ptr = nullptr;
  size_t size = 0;
  size_t requested = 0;  // bytes asked for, before rounding
  bool allocated = false;
  bool small = false;
  Block* prev = nullptr;  // neighbours inside one segment
  Block* next = nullptr;
  bool is_split() const { return prev || next; }
};

namespace {
using Block = CachingAllocator::Block;

// The statistics a block of one pool updates: "all" and its own pool.
template <class F> void for_pools(bool small, F f) {
  f(kAllPools);
  f(small ? kSmallPool : kLargePool);
}

// `a` takes over the bytes of its right neighbour in the segment, which goes.
void absorb_next(Block* a) {
  Block* n = a->next;
  a->size += n->size;
  a->next = n->next;
  if (n->next) n->next->prev = a;
  delete n;
}

bool should_split(const Block* b, size_t size) {
  const size_t remaining = b->size - size;
  return b->small ? remaining >= kMinBlockSize : remaining > kSmallSize;
}

// Segments of host memory (virtual devices): the CPU has no queue to wait for.
class HostSegments final : public SegmentSource {
 public:
  void* alloc(size_t bytes) override { return std::aligned_alloc(64, round_up(bytes, 64)); }
  void free(void* p) override { std::free(p); }
  void synchronize() override {}
  void mem_info(int64_t* free_bytes, int64_t* total_bytes) override { *free_bytes = *total_bytes = 0; }
  bool release_at_exit() const override { return true; }
};
}  // namespace

SegmentSource* host_segments() {
  static HostSegments* s = new HostSegments;  // never destroyed: allocators outlive statics
  return s;
}

bool CachingAllocator::BySize::operator()(const Block* a, const Block* b) const {
  return a->size != b->size ? a->size < b->size : a->ptr < b->ptr;
}

CachingAllocator::~CachingAllocator() {
  const bool release = src_->release_at_exit();
  auto drop = [&](Block* b) {
    if (release && !b->prev) src_->free(b->ptr);  // a segment's first block holds its address
    delete b;
  };
  for (Pool* pool : {&small_, &large_})
    for (Block* b : *pool) drop(b);
  for (auto& [p, b] : live_) drop(b);
}

void* CachingAllocator::allocate(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  const size_t size = round_size(nbytes);
  const bool small = size <= kSmallSize;
  std::unique_lock<std::mutex> g(mu_);
  Pool& pool = small ? small_ : large_;
  if (Block* b = take(pool, size)) return hand_out(b, size, nbytes);
  // Nothing cached fits: let the embedder collect what it no longer uses (its
  // frees take the lock), its young garbage first (Note [Young garbage
  // first]), looking again after each before asking the device.
  for (Relief how : {Relief::Young, Relief::Full}) {
    g.unlock();
    const bool collected = relieve_memory_pressure(how);
    g.lock();
    if (!collected) break;
    if (Block* b = take(pool, size)) return hand_out(b, size, nbytes);
  }
  const size_t seg = get_allocation_size(size);
  Block* b = nullptr;
  if (!alloc_segment(seg, small, false, &b)) {
    release_cached();
    if (!alloc_segment(seg, small, true, &b)) oom(seg);
  }
  return hand_out(b, size, nbytes);
}

// PyTorch's alloc_found_block: split off the rest when worth keeping, count.
void* CachingAllocator::hand_out(Block* b, size_t size, size_t requested) {
  const bool already_split = b->is_split();
  Pool& pool = b->small ? small_ : large_;
  if (should_split(b, size)) {
    Block* r = new Block;
    r->ptr = b->ptr + size;
    r->size = b->size - size;
    r->small = b->small;
    r->prev = b;
    r->next = b->next;
    if (b->next) b->next->prev = r;
    b->next = r;
    b->size = size;
    pool.insert(r);
    for_pools(b->small, [&](int t) {
      if (already_split) {
        st_.inactive_split_bytes[t].sub(int64_t(size));  // a free piece shrinks
      } else {
        st_.inactive_split_bytes[t].add(int64_t(r->size));  // a new free piece
        st_.inactive_split[t].add(1);
      }
    });
  } else if (already_split) {
    for_pools(b->small, [&](int t) {
      st_.inactive_split_bytes[t].sub(int64_t(b->size));
      st_.inactive_split[t].sub(1);
    });
  }
  b->allocated = true;
  b->requested = requested;
  live_.emplace(b->ptr, b);
  for_pools(b->small, [&](int t) {
    st_.allocation[t].add(1);
    st_.allocated_bytes[t].add(int64_t(b->size));
    st_.active[t].add(1);
    st_.active_bytes[t].add(int64_t(b->size));
    st_.requested_bytes[t].add(int64_t(requested));
  });
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
  const int64_t size = int64_t(b->size), requested = int64_t(b->requested);
  int64_t split_blocks = 0, split_bytes = 0;  // change in inactive split pieces
  Pool& pool = b->small ? small_ : large_;
  if (Block* n = b->next; n && !n->allocated) {
    pool.erase(n);
    split_blocks -= 1;
    split_bytes -= int64_t(n->size);
    absorb_next(b);
  }
  if (Block* pr = b->prev; pr && !pr->allocated) {
    pool.erase(pr);
    split_blocks -= 1;
    split_bytes -= int64_t(pr->size);
    absorb_next(pr);
    b = pr;
  }
  pool.insert(b);
  if (b->is_split()) {
    split_blocks += 1;
    split_bytes += int64_t(b->size);
  }
  for_pools(b->small, [&](int t) {
    st_.allocation[t].sub(1);
    st_.allocated_bytes[t].sub(size);
    if (split_blocks > 0) st_.inactive_split[t].add(split_blocks);
    if (split_blocks < 0) st_.inactive_split[t].sub(-split_blocks);
    if (split_bytes > 0) st_.inactive_split_bytes[t].add(split_bytes);
    if (split_bytes < 0) st_.inactive_split_bytes[t].sub(-split_bytes);
    st_.active[t].sub(1);
    st_.active_bytes[t].sub(size);
    st_.requested_bytes[t].sub(requested);
  });
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

// PyTorch's alloc_block: a new segment of `seg` bytes, unless the capacity or
// the device refuses it.
bool CachingAllocator::alloc_segment(size_t seg, bool small, bool retry, Block** out) {
  if (retry) st_.num_alloc_retries++;
  if (capacity_ > 0 && st_.reserved_bytes[kAllPools].current + int64_t(seg) > capacity_) return false;
  void* p = src_->alloc(seg);
  if (!p) return false;
  Block* b = new Block;
  b->ptr = static_cast<char*>(p);
  b->size = seg;
  b->small = small;
  for_pools(small, [&](int t) {
    st_.segment[t].add(1);
    st_.reserved_bytes[t].add(int64_t(seg));
  });
  st_.num_device_alloc++;
  *out = b;
  return true;
}

// PyTorch's release_cached_blocks: gives every wholly free segment back to the
// source. Blocks in the pools may still be read by queued kernels, so wait for
// the device first.
void CachingAllocator::release_cached() {
  st_.num_sync_all_streams++;
  bool synced = false;
  for (Pool* pool : {&small_, &large_}) {
    for (auto it = pool->begin(); it != pool->end();) {
      Block* b = *it;
      if (b->is_split()) {
        ++it;
        continue;
      }
      if (!synced) {
        src_->synchronize();
        synced = true;
      }
      src_->free(b->ptr);
      st_.num_device_free++;
      for_pools(b->small, [&](int t) {
        st_.segment[t].sub(1);
        st_.reserved_bytes[t].sub(int64_t(b->size));
      });
      it = pool->erase(it);
      delete b;
    }
  }
}

void CachingAllocator::oom(size_t seg) {
  st_.num_ooms++;
  const int64_t reserved = st_.reserved_bytes[kAllPools].current;
  const int64_t allocated = st_.allocated_bytes[kAllPools].current;
  int64_t total = capacity_, free_bytes = capacity_ - reserved;
  if (capacity_ <= 0) src_->mem_info(&free_bytes, &total);
  if (free_bytes < 0) free_bytes = 0;
  throw OutOfMemoryError(
      oom_message(index_, int64_t(seg), total, free_bytes, allocated, reserved - allocated,
                  capacity_ > 0 ? std::string() : src_->process_report()));  // a slice: its own capacity only
}

}  // namespace gl
