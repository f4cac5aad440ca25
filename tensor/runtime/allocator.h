// Allocator and Storage: refcounted bytes on one device (c10's split).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>
#include "tensor/core/device.h"
#include "tensor/runtime/memory_stats.h"

namespace gl {

struct TensorImpl;

struct AllocStats {
  int64_t allocated = 0;       // bytes handed out to live storages
  int64_t peak_allocated = 0;  // high-water mark of `allocated`
  int64_t reserved = 0;        // bytes held from the system (allocated + cached)
  int64_t peak_reserved = 0;
  int64_t num_allocs = 0;     // allocations handed out
  int64_t num_os_allocs = 0;  // of which went to the system (cudaMalloc / malloc)
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  virtual void* allocate(size_t nbytes) = 0;  // throws OutOfMemoryError
  virtual void deallocate(void* p, size_t nbytes) = 0;
  virtual AllocStats stats() const = 0;
  virtual void reset_peak() = 0;
  virtual void empty_cache() {}
  // PyTorch's full statistics (torch.cuda.memory_stats); caching allocators only.
  virtual MemoryStats memory_stats() const { return {}; }
  virtual void reset_accumulated() {}
  // True for an allocator that runs the memory-pressure hooks itself before it
  // grows (the caching allocator): its bytes need not pace the embedder's
  // collector (Note [Young garbage first]).
  virtual bool collects_garbage() const { return false; }
};

struct Storage {
  void* data = nullptr;
  size_t nbytes = 0;
  Device device;
  Allocator* alloc = nullptr;  // allocators live as long as the process
  uint32_t version = 0;        // writes by in-place ops (Note [Version counter])
  // The tensors on this storage made as views for autograd (their node's
  // output shares its input's storage): an in-place op recorded for autograd
  // cannot write through them (Note [In-place autograd]).
  std::vector<std::weak_ptr<TensorImpl>> autograd_views;

  Storage(size_t n, Device d, Allocator* a) : nbytes(n), device(d), alloc(a) { data = n ? a->allocate(n) : nullptr; }
  ~Storage() {
    if (data) alloc->deallocate(data, nbytes);
  }
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
};
using StoragePtr = std::shared_ptr<Storage>;

// "1.50 MiB", "20.00 GiB", "512 bytes": PyTorch's format_size.
std::string format_bytes(int64_t n);

}  // namespace gl
