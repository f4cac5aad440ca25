// The caching allocator behind real CUDA devices (after PyTorch's
// CUDACachingAllocator, much reduced), written against a SegmentSource so the
// same logic runs on cudaMalloc in gpulab_cuda and on malloc in the unit tests.
//
// - Sizes are rounded up to 512 bytes.
// - Small requests (<= 1 MiB) are carved from 2 MiB segments; large ones from
//   20 MiB segments (below 10 MiB) or segments of their own size rounded up to
//   2 MiB. A block is split when the rest is worth keeping (any rest for the
//   small pool, more than 1 MiB for the large one); freed neighbours merge.
// - Stream-ordered reuse: each allocator belongs to one device slot, whose
//   kernels all run on one stream, so a block freed on the host may be handed
//   out again at once: later work on that stream runs after earlier work that
//   still reads it. (Copies across slots make the source stream wait for the
//   copy, see runtime/cuda/runtime.cpp, so reuse stays safe there too.)
// - When the source is out of memory: release cached segments and retry once
//   (then once more with a segment of exactly the request), then throw
//   OutOfMemoryError with PyTorch's message. A capacity limit (virtual slices
//   of one GPU) refuses what would make reserved memory exceed it.
#pragma once
#include <mutex>
#include <set>
#include <unordered_map>
#include "tensor/runtime/allocator.h"

namespace gl {

// Where segments come from: the device's memory.
class SegmentSource {
 public:
  virtual ~SegmentSource() = default;
  virtual void* alloc(size_t bytes) = 0;          // nullptr when out of memory
  virtual void free(void* p) = 0;
  virtual void synchronize() = 0;                 // until queued work is done
  virtual void mem_info(int64_t* free_bytes, int64_t* total_bytes) = 0;
};

class CachingAllocator final : public Allocator {
 public:
  // capacity > 0 caps reserved memory; `index` names the device in messages.
  CachingAllocator(SegmentSource* src, int64_t capacity, int index) : src_(src), capacity_(capacity), index_(index) {}
  // Frees its own bookkeeping but gives no segment back to the source: the
  // device's allocators live as long as the process, and at exit the CUDA
  // runtime may be gone already.
  ~CachingAllocator() override;

  void* allocate(size_t nbytes) override;
  void deallocate(void* p, size_t nbytes) override;
  AllocStats stats() const override;
  void reset_peak() override;
  void empty_cache() override;

  struct Block;

 private:
  struct BySize {
    bool operator()(const Block* a, const Block* b) const;
  };
  using Pool = std::set<Block*, BySize>;
  Block* take(Pool& pool, size_t size);
  void release_cached();
  [[noreturn]] void oom(size_t size);
  bool fits(size_t seg) const { return capacity_ <= 0 || st_.reserved + int64_t(seg) <= capacity_; }
  Block* new_segment(size_t size, bool small);

  mutable std::mutex mu_;
  AllocStats st_;
  Pool small_, large_;
  std::unordered_map<void*, Block*> live_;
  SegmentSource* src_;
  int64_t capacity_;
  int index_;
};

}  // namespace gl
