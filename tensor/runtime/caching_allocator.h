// PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp, with its
// default settings: one stream per device, no max_split_size, no expandable
// segments), written against a SegmentSource so the same logic runs on
// cudaMalloc for real GPUs, on host memory for virtual devices, and on malloc
// in the unit tests. Its numbers are PyTorch's, so lessons about memory show
// what a GPU would:
//
// - Sizes are rounded up to 512 bytes (at least 512).
// - Small requests (<= 1 MiB) are carved from 2 MiB segments; large ones from
//   20 MiB segments (below 10 MiB) or segments of their own size rounded up to
//   2 MiB. A cached block is split when the rest is worth keeping (>= 512 bytes
//   in the small pool, > 1 MiB in the large one); freed neighbours merge.
// - Before asking the device for a new segment, the memory-pressure hooks run
//   (PyTorch's free-memory callbacks; for gpulab, a Lua collection) and the
//   pool is searched again. When the device is out of memory: release every
//   wholly free segment and retry once, then throw OutOfMemoryError with
//   PyTorch's message. A capacity (virtual devices, slices of one GPU) acts
//   like set_per_process_memory_fraction: reserved memory never exceeds it.
// - Stream-ordered reuse: each allocator belongs to one device slot, whose
//   kernels all run on one stream, so a block freed on the host may be handed
//   out again at once: later work on that stream runs after earlier work that
//   still reads it. (Copies across slots make the source stream wait for the
//   copy, see runtime/cuda/runtime.cpp, so reuse stays safe there too.)
#pragma once
#include <mutex>
#include <set>
#include <unordered_map>
#include "tensor/runtime/counting_allocator.h"

namespace gl {

// Where segments come from: the device's memory.
class SegmentSource {
 public:
  virtual ~SegmentSource() = default;
  virtual void* alloc(size_t bytes) = 0;  // nullptr when out of memory
  virtual void free(void* p) = 0;
  virtual void synchronize() = 0;  // until queued work is done
  virtual void mem_info(int64_t* free_bytes, int64_t* total_bytes) = 0;
  // For the out-of-memory message: "Including non-PyTorch memory, this
  // process has X memory in use. " and other processes' use, where known.
  virtual std::string process_report() { return {}; }
  // Whether the allocator's destructor may give its segments back (host
  // memory may; at exit the CUDA runtime may be gone already).
  virtual bool release_at_exit() const { return false; }
};

// Segments of ordinary host memory: virtual devices emulated on the CPU.
SegmentSource* host_segments();

class CachingAllocator final : public CountingAllocator {
 public:
  // capacity > 0 caps reserved memory; `index` names the device in messages.
  CachingAllocator(SegmentSource* src, int64_t capacity, int index) : src_(src), capacity_(capacity), index_(index) {}
  // Frees its own bookkeeping, and the segments where the source allows it.
  ~CachingAllocator() override;

  void* allocate(size_t nbytes) override;
  void deallocate(void* p, size_t nbytes) override;
  void empty_cache() override;
  bool collects_garbage() const override { return true; }

  struct Block;

 private:
  struct BySize {
    bool operator()(const Block* a, const Block* b) const;
  };
  using Pool = std::set<Block*, BySize>;
  Block* take(Pool& pool, size_t size);
  bool alloc_segment(size_t seg, bool small, bool retry, Block** out);
  void release_cached();
  [[noreturn]] void oom(size_t seg);
  void* hand_out(Block* b, size_t size, size_t requested);

  Pool small_, large_;
  std::unordered_map<void*, Block*> live_;
  SegmentSource* src_;
  int64_t capacity_;
  int index_;
};

}  // namespace gl
