#include "tensor/runtime/host_allocator.h"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sys/sysinfo.h>
#include "tensor/core/error.h"

namespace gl {

std::string format_bytes(int64_t n) {
  char buf[64];
  if (n <= 1024) std::snprintf(buf, sizeof buf, "%lld bytes", (long long)n);
  else if (n <= 1048576) std::snprintf(buf, sizeof buf, "%.2f KiB", double(n) / 1024.0);
  else if (n <= 1073741824LL) std::snprintf(buf, sizeof buf, "%.2f MiB", double(n) / 1048576.0);
  else std::snprintf(buf, sizeof buf, "%.2f GiB", double(n) / 1073741824.0);
  return buf;
}

std::string oom_message(int device, int64_t requested, int64_t capacity, int64_t free_bytes, int64_t allocated,
                        int64_t reserved_unallocated, const std::string& processes) {
  return cat("CUDA out of memory. Tried to allocate ", format_bytes(requested), ". GPU ", device,
             " has a total capacity of ", format_bytes(capacity), " of which ", format_bytes(free_bytes), " is free. ",
             processes, "Of the allocated memory ", format_bytes(allocated), " is allocated by PyTorch, and ",
             format_bytes(reserved_unallocated),
             " is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting"
             " PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for"
             " Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html"
             "#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)");
}

namespace {
// Size class of a block (64 << c bytes), or -1 when too large to cache.
int size_class(size_t n) {
  size_t c = 64;
  for (int i = 0; i < 11; ++i, c <<= 1)
    if (n <= c) return i;
  return -1;
}

// Note [Allocations past memory]: mimalloc maps large blocks without a swap
// reservation (MAP_NORESERVE), so the kernel's overcommit heuristic, which
// refuses a malloc larger than RAM and swap together (PyTorch's "can't
// allocate memory" error), never saw them: torch.zeros(2^39) was granted, and
// filling it got gpulab killed. Blocks past that size are refused here.
bool beyond_memory(size_t n) {
  if (n < (size_t(1) << 30)) return false;
  struct sysinfo si;
  if (sysinfo(&si) != 0) return false;
  const unsigned __int128 total = (unsigned __int128)(si.totalram + si.totalswap) * si.mem_unit;
  return n > total;
}

// Note [Large host blocks]: a freshly mapped block costs a page fault per
// 4 KiB at its first touch, and the allocator under malloc (mimalloc) gives
// large blocks back to the system soon after they are freed: a 26 MB oneDNN
// reorder into a new block took 5.4 ms, against 0.9 ms for PyTorch, whose
// glibc malloc reuses freed blocks below 32 MB (its dynamic mmap threshold).
// Training repeats the same shapes every step, so freed blocks past 64 KiB
// and up to 64 MiB are kept, their sizes rounded up to an eighth of their
// power of two (at most 12.5% more), and handed out again for the same
// rounded size, while the kept bytes stay under a sixteenth of the machine's
// memory and 512 MiB (thirty learners' kernels on one server must not each
// hold gigabytes they freed). Larger blocks go back at once, as glibc's past
// its threshold. empty_cache gives them back.
constexpr size_t kLargeMax = size_t(64) << 20;  // larger blocks are not kept

size_t block_size(size_t n) {
  const int cls = size_class(n);
  if (cls >= 0) return size_t(64) << cls;
  size_t p = size_t(1) << (63 - __builtin_clzll(n));
  const size_t step = p / 8;
  return (n + step - 1) / step * step;
}

size_t large_budget() {
  struct sysinfo si;
  if (sysinfo(&si) != 0) return 0;
  const size_t ram = size_t(si.totalram) * si.mem_unit;
  return std::min(ram / 16, size_t(512) << 20);
}

}  // namespace

HostAllocator::~HostAllocator() { empty_cache(); }

void* HostAllocator::allocate(size_t nbytes) {
  const size_t n = nbytes;
  const int cls = size_class(n);
  const size_t real = block_size(n);
  void* p = nullptr;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (cls >= 0 && !cache_[cls].empty()) {
      p = cache_[cls].back();
      cache_[cls].pop_back();
    } else if (cls < 0) {
      auto it = large_.find(real);
      if (it != large_.end() && !it->second.empty()) {
        p = it->second.back();
        it->second.pop_back();
        large_bytes_ -= real;
      }
    }
    if (p) {
      st_.allocation[kAllPools].add(1);
      st_.allocated_bytes[kAllPools].add(int64_t(n));
      return p;
    }
  }
  p = beyond_memory(real) ? nullptr : std::aligned_alloc(64, real);
  if (!p)
    throw RuntimeError(
        cat("[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: you "
            "tried to allocate ",
            n, " bytes. Error code 12 (Cannot allocate memory)"));  // PyTorch 2.15's words
  std::lock_guard<std::mutex> g(mu_);
  st_.allocation[kAllPools].add(1);
  st_.allocated_bytes[kAllPools].add(int64_t(n));
  st_.reserved_bytes[kAllPools].add(int64_t(real));
  st_.num_device_alloc++;
  return p;
}

void HostAllocator::deallocate(void* p, size_t nbytes) {
  const size_t n = nbytes;
  const int cls = size_class(n);
  const size_t real = block_size(n);
  {
    std::lock_guard<std::mutex> g(mu_);
    st_.allocation[kAllPools].sub(1);
    st_.allocated_bytes[kAllPools].sub(int64_t(n));
    if (cls >= 0 && cache_[cls].size() < kMaxCached) {
      cache_[cls].push_back(p);
      return;
    }
    if (cls < 0 && real <= kLargeMax) {
      if (large_budget_ == 0) large_budget_ = large_budget();
      if (large_bytes_ + real <= large_budget_) {
        large_[real].push_back(p);
        large_bytes_ += real;
        return;
      }
    }
    st_.reserved_bytes[kAllPools].sub(int64_t(real));
    st_.num_device_free++;
  }
  std::free(p);
}

void HostAllocator::empty_cache() {
  std::lock_guard<std::mutex> g(mu_);
  for (int c = 0; c < kClasses; ++c) {
    for (void* p : cache_[c]) std::free(p);
    st_.reserved_bytes[kAllPools].sub(int64_t(cache_[c].size() * (size_t(64) << c)));
    st_.num_device_free += int64_t(cache_[c].size());
    cache_[c].clear();
  }
  for (auto& [size, blocks] : large_) {
    for (void* p : blocks) std::free(p);
    st_.reserved_bytes[kAllPools].sub(int64_t(size * blocks.size()));
    st_.num_device_free += int64_t(blocks.size());
  }
  large_.clear();
  large_bytes_ = 0;
}

}  // namespace gl
