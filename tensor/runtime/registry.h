// The device registry: which devices exist, and for each its allocator,
// kernels and execution context. CPU is always there; CUDA devices are
// discovered lazily on first use (Note [Lazy CUDA]) and are either physical
// GPUs, virtual slices of one GPU, or virtual devices emulated in host memory.
#pragma once
#include <cstdint>
#include <string>
#include "tensor/core/device.h"
#include "tensor/kernels/kernels.h"
#include "tensor/runtime/allocator.h"

namespace gl {

struct DeviceSlot {
  Allocator* alloc = nullptr;
  const Kernels* kernels = nullptr;
  void* exec = nullptr;
  bool host_memory = true;  // data is ordinary host memory (CPU or emulated)
  bool is_virtual = false;
  int physical = -1;     // physical CUDA ordinal, -1 when emulated
  int64_t capacity = 0;  // bytes this device may hold (virtual devices)
  std::string name;
};

// Virtual devices: call before the first CUDA use (the CLI does), or after a
// first use that found no CUDA device at all.
void configure_virtual_devices(int n, int64_t capacity_bytes);
// Virtual devices configured so far (by the CLI or GPULAB_VIRTUAL_GPUS): their
// number, or 0; never initialises CUDA.
int configured_virtual_devices();
// Physical GPUs the driver reports (0 without a driver or a CUDA build);
// never initialises gpulab's devices.
int physical_cuda_device_count();
bool parse_virtual_spec(const std::string& spec, int* n, int64_t* capacity);  // "2", "2:16GiB"

const DeviceSlot& slot_for(Device d);  // d resolved; throws for a bad ordinal
Allocator& allocator_for(Device d);
Device resolve_device(Device d);  // "cuda" -> "cuda:<current>", checks availability

int cuda_device_count();  // never throws
bool cuda_initialized();  // has anything named a CUDA device yet? (initialises nothing)
bool cuda_available();
std::string cuda_unavailable_message();  // for errors when CUDA was asked for and is absent
int current_cuda_device();
void set_cuda_device(int i);
void synchronize_device(Device d);
void synchronize_all();
// Before a deliberate exit: empties the GPUs' caches and gives back the
// library handles (Note [Teardown] in cuda/runtime.cpp). Initialises nothing.
void release_devices();
// The allocator of pinned CPU tensors (pin_memory): page-locked memory where a
// GPU is, ordinary host memory beside emulated devices (so lessons run);
// without any CUDA device, PyTorch's error.
Allocator& pinned_allocator();
bool is_pinned_allocator(const Allocator* a);

// Copies n bytes between any two devices, in stream order.
void copy_bytes(void* dst, Device dd, const void* src, Device sd, size_t n);

void manual_seed_all_devices(uint64_t seed);  // CPU and every CUDA device
void manual_seed_cpu(uint64_t seed);
void manual_seed_cuda(int device, uint64_t seed);
void mem_get_info(int device, int64_t* free_bytes, int64_t* total_bytes);

}  // namespace gl
