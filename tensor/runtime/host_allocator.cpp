#include "tensor/runtime/host_allocator.h"
#include <cstdio>
#include <cstdlib>
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

std::string oom_message(int device, int64_t requested, int64_t capacity, int64_t free_bytes,
                        int64_t allocated, int64_t reserved_unallocated) {
  return cat("CUDA out of memory. Tried to allocate ", format_bytes(requested), ". GPU ", device,
             " has a total capacity of ", format_bytes(capacity), " of which ", format_bytes(free_bytes),
             " is free. Of the allocated memory ", format_bytes(allocated),
             " is allocated by PyTorch, and ", format_bytes(reserved_unallocated),
             " is reserved by PyTorch but unallocated.");
}

namespace {
// Virtual devices count memory the way the CUDA caching allocator does.
size_t rounded(size_t n) { return (n + 511) / 512 * 512; }
}  // namespace

void* HostAllocator::allocate(size_t nbytes) {
  size_t n = capacity_ ? rounded(nbytes) : nbytes;
  {
    std::lock_guard<std::mutex> g(mu_);
    if (capacity_ && st_.allocated + int64_t(n) > capacity_)
      throw OutOfMemoryError(oom_message(index_, int64_t(n), capacity_, capacity_ - st_.allocated,
                                         st_.allocated, 0));
  }
  void* p = std::aligned_alloc(64, (n + 63) / 64 * 64);
  if (!p) {
    if (capacity_)
      throw OutOfMemoryError(oom_message(index_, int64_t(n), capacity_, 0, st_.allocated, 0));
    throw OutOfMemoryError(cat("[enforce fail at alloc_cpu.cpp] DefaultCPUAllocator: can't allocate memory: you tried to allocate ",
                               n, " bytes."));
  }
  std::lock_guard<std::mutex> g(mu_);
  st_.allocated += int64_t(n);
  st_.reserved = st_.allocated;
  st_.num_allocs++;
  st_.num_os_allocs++;
  if (st_.allocated > st_.peak_allocated) st_.peak_allocated = st_.allocated;
  st_.peak_reserved = st_.peak_allocated;
  return p;
}

void HostAllocator::deallocate(void* p, size_t nbytes) {
  std::free(p);
  std::lock_guard<std::mutex> g(mu_);
  st_.allocated -= int64_t(capacity_ ? rounded(nbytes) : nbytes);
  st_.reserved = st_.allocated;
}

AllocStats HostAllocator::stats() const {
  std::lock_guard<std::mutex> g(mu_);
  return st_;
}

void HostAllocator::reset_peak() {
  std::lock_guard<std::mutex> g(mu_);
  st_.peak_allocated = st_.allocated;
  st_.peak_reserved = st_.reserved;
}

}  // namespace gl
