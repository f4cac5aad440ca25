// The physical CUDA layer, as seen by the device registry. gpulab_cuda
// implements it with the CUDA runtime; cuda_stub.cpp implements it for builds
// without a toolkit (zero devices). Nothing here includes CUDA headers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>
#include "tensor/kernels/kernels.h"
#include "tensor/runtime/allocator.h"

namespace gl {
class SegmentSource;
}

namespace gl::cuda {

struct PhysProps {
  std::string name;
  int64_t total_memory = 0;
  int multi_processor_count = 0;
  int major = 0, minor = 0;
  std::string uuid;
  int pci_bus_id = 0, pci_device_id = 0, pci_domain_id = 0;
  int64_t l2_cache_size = 0;  // bytes
};

bool compiled();                   // built with the CUDA toolkit?
int device_count();                // never throws; 0 without a driver or GPU
std::string unavailable_reason();  // why device_count() is 0 ("no CUDA-capable device is detected")
PhysProps properties(int phys);
void mem_get_info(int phys, int64_t* free_bytes, int64_t* total_bytes);

// A caching allocator on `phys`; capacity_limit > 0 caps what it hands out
// (virtual slices of one GPU each get their own).
Allocator* create_allocator(int phys, int64_t capacity_limit, int logical_index);
void* create_exec(int phys);  // stream, cuBLAS handle, generator
// Page-locked host memory for pinned CPU tensors (cuda/pinned.cpp); null
// without a CUDA build.
SegmentSource* pinned_segments();
// Before a deliberate exit: destroys the execs' library handles and frees their
// workspaces (Note [Teardown] in cuda/runtime.cpp).
void release_libraries();
const Kernels& kernels();
void synchronize(void* exec);
// The exec's stream (a cudaStream_t), for libraries that queue work on it (NCCL).
void* stream_of(void* exec);
// A GPU is made current only by a DeviceGuard (cuda_device_guard.h).
// Ordered copy; a null exec means that side is host memory.
void memcpy(void* dst, void* dst_exec, const void* src, void* src_exec, size_t n);

void* event_create(bool timing);
void event_destroy(void* ev);
void event_record(void* ev, void* exec);
void event_synchronize(void* ev);
bool event_query(void* ev);
float event_elapsed_ms(void* start, void* end);

void set_allow_tf32(bool on);
bool allow_tf32();

// nvidia-smi's view, from NVML when libnvidia-ml can be loaded; false otherwise.
struct SmiRow {
  int64_t used = 0, total = 0;
  int util_gpu = -1;
  int temp_c = -1;
  int power_w = -1;
};
bool smi_query(int phys, SmiRow* row);
// PyTorch's out-of-memory sentence on the processes using GPU `phys`:
// "Including non-PyTorch memory, this process has X memory in use. " (and
// "Process PID has ..." for others); empty without NVML.
std::string smi_process_report(int phys);
// The driver's version ("550.54.15") and the CUDA version it supports ("12.4").
bool smi_versions(std::string* driver, std::string* cuda);

// What is installed, for --version, the banner and `gpulab doctor`. These load
// libraries with dlopen but never initialise CUDA (no cuInit, no context).
std::string toolkit_version();  // the CUDA runtime compiled in ("13.0"); "" without CUDA
int driver_version();           // cuDriverGetVersion (13000), 0 without libcuda.so.1
struct Library {
  std::string purpose;  // "driver", "cuBLAS", "NVML"
  std::string file;     // the soname looked for ("libcublas.so.13")
  bool found = false;
  std::string version;  // "13.1.0" where the library tells it
  std::string error;    // dlerror() when not found
};
// The CUDA libraries gpulab uses, each loaded (or looked for) now. Empty without CUDA.
std::vector<Library> libraries();

}  // namespace gl::cuda
