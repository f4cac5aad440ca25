// The physical CUDA layer of a build without the CUDA toolkit: no devices.
#include "tensor/core/error.h"
#include "tensor/runtime/cuda_api.h"
#include "tensor/runtime/cuda_device_guard.h"

namespace gl::cuda {

namespace {
[[noreturn]] void absent() { throw RuntimeError("Torch not compiled with CUDA enabled"); }
}  // namespace

bool compiled() { return false; }
int device_count() { return 0; }
std::string unavailable_reason() { return "Torch not compiled with CUDA enabled"; }
PhysProps properties(int) { absent(); }
void mem_get_info(int, int64_t*, int64_t*) { absent(); }
Allocator* create_allocator(int, int64_t, int) { absent(); }
void* create_exec(int) { absent(); }
void release_libraries() {}
SegmentSource* pinned_segments() { return nullptr; }
const Kernels& kernels() { absent(); }
void synchronize(void*) {}
void* stream_of(void*) { return nullptr; }
DeviceGuard::DeviceGuard(int) {}
DeviceGuard::~DeviceGuard() {}
void memcpy(void*, void*, const void*, void*, size_t) { absent(); }
void* event_create(bool) { absent(); }
void event_destroy(void*) {}
void event_record(void*, void*) { absent(); }
void event_synchronize(void*) {}
bool event_query(void*) { return true; }
float event_elapsed_ms(void*, void*) { absent(); }
void set_allow_tf32(bool) {}
bool allow_tf32() { return false; }
bool smi_query(int, SmiRow*) { return false; }
bool smi_versions(std::string*, std::string*) { return false; }
std::string smi_process_report(int) { return {}; }
std::string toolkit_version() { return ""; }
int driver_version() { return 0; }
std::vector<Library> libraries() { return {}; }

}  // namespace gl::cuda
