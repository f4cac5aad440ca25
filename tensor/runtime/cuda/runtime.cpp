// The physical CUDA layer (tensor/runtime/cuda_api.h) over the CUDA runtime:
// device discovery, properties, execution contexts, ordered copies, events.
// The caching allocator is in allocator.cpp, NVML in smi.cpp, the kernel
// table in tensor/kernels/cuda/table.cu.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>
#include "tensor/core/error.h"
#include "tensor/runtime/cuda/cublas_loader.h"
#include "tensor/runtime/cuda/exec.h"
#include "tensor/runtime/cuda_api.h"

namespace gl::cuda {

// ---- errors and the current device ----

void throw_cuda(cudaError_t e) {
  (void)cudaGetLastError();  // clear the non-sticky error so later calls start clean
  // Memory the caching allocator does not hand out (kernel scratch, cuBLAS's
  // workspace) can run out too: that is still torch.OutOfMemoryError.
  if (e == cudaErrorMemoryAllocation) throw OutOfMemoryError(cat("CUDA error: ", cudaGetErrorString(e)));
  throw RuntimeError(cat("CUDA error: ", cudaGetErrorString(e)));
}

void check_launch() {
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) [[unlikely]]
    throw_cuda(e);
}

DeviceGuard::DeviceGuard(int device) {
  int cur = -1;
  if (cudaGetDevice(&cur) != cudaSuccess) (void)cudaGetLastError();
  if (cur == device) return;
  check_cuda(cudaSetDevice(device));
  previous_ = cur;
}

DeviceGuard::~DeviceGuard() {
  // A destructor never throws: a failure to switch back is cleared and left.
  if (previous_ >= 0 && cudaSetDevice(previous_) != cudaSuccess) (void)cudaGetLastError();
}

Owned& owned() {
  static Owned* o = new Owned;  // never destroyed: execs and allocators outlive statics
  return *o;
}

void* exec_workspace(Exec* ex, size_t bytes) {
  if (bytes <= ex->workspace_bytes) return ex->workspace;
  DeviceGuard device_guard(ex->device);
  if (ex->workspace) {
    // Earlier kernels on this stream may still read the old buffer.
    check_cuda(cudaStreamSynchronize(ex->stream));
    check_cuda(cudaFree(ex->workspace));
    ex->workspace = nullptr;
    ex->workspace_bytes = 0;
  }
  const size_t n = bytes < (size_t(1) << 20) ? (size_t(1) << 20) : bytes;
  check_cuda(cudaMalloc(&ex->workspace, n));
  ex->workspace_bytes = n;
  return ex->workspace;
}

// ---- discovery (Note [Lazy CUDA]: nothing runs before the first call) ----

namespace {

struct Discovery {
  std::once_flag once;
  int count = 0;
  std::string reason;
};

Discovery& discovery() {
  static Discovery d;
  return d;
}

void discover(Discovery& d) {
  int n = 0;  // cudaGetDeviceCount leaves it untouched on error
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    n = 0;
    if (e == cudaErrorInsufficientDriver) {
      int version = 0;
      if (cudaDriverGetVersion(&version) != cudaSuccess) (void)cudaGetLastError();
      // PyTorch's wording (c10/cuda/CUDAFunctions.cpp).
      if (version <= 0)
        d.reason =
            "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and "
            "installed a driver from http://www.nvidia.com/Download/index.aspx";
      else
        d.reason = cat("The NVIDIA driver on your system is too old (found version ", version,
                       "). Please update your GPU driver by downloading and installing a new version from "
                       "the URL: http://www.nvidia.com/Download/index.aspx");
    } else {
      d.reason = cudaGetErrorString(e);
    }
  } else if (n <= 0) {
    n = 0;
    d.reason = cudaGetErrorString(cudaErrorNoDevice);
  }
  d.count = n;
}

void check_ordinal(int phys) {
  if (phys < 0 || phys >= device_count()) throw_cuda(cudaErrorInvalidDevice);
}

std::string format_uuid(const cudaUUID_t& u) {
  const unsigned char* b = reinterpret_cast<const unsigned char*>(u.bytes);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
                b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return buf;
}

std::atomic<bool> g_allow_tf32{false};

}  // namespace

bool compiled() { return true; }

int device_count() {
  Discovery& d = discovery();
  try {
    std::call_once(d.once, [&] { discover(d); });
  } catch (...) { return 0; }
  return d.count;
}

std::string unavailable_reason() {
  device_count();
  return discovery().reason;
}

PhysProps properties(int phys) {
  check_ordinal(phys);
  cudaDeviceProp p;
  std::memset(&p, 0, sizeof p);
  check_cuda(cudaGetDeviceProperties(&p, phys));
  PhysProps r;
  r.name = p.name;
  r.total_memory = int64_t(p.totalGlobalMem);
  r.multi_processor_count = p.multiProcessorCount;
  r.major = p.major;
  r.minor = p.minor;
  r.uuid = format_uuid(p.uuid);
  r.pci_bus_id = p.pciBusID;
  r.pci_device_id = p.pciDeviceID;
  r.pci_domain_id = p.pciDomainID;
  r.l2_cache_size = p.l2CacheSize;
  return r;
}

void mem_get_info(int phys, int64_t* free_bytes, int64_t* total_bytes) {
  check_ordinal(phys);
  DeviceGuard device_guard(phys);
  size_t f = 0, t = 0;
  check_cuda(cudaMemGetInfo(&f, &t));
  *free_bytes = int64_t(f);
  *total_bytes = int64_t(t);
}

// ---- execution contexts ----

void* create_exec(int phys) {
  check_ordinal(phys);
  DeviceGuard device_guard(phys);
  auto ex = std::make_unique<Exec>();
  ex->device = phys;
  check_cuda(cudaDeviceGetAttribute(&ex->sm_count, cudaDevAttrMultiProcessorCount, phys));
  check_cuda(cudaDeviceGetAttribute(&ex->max_threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, phys));
  if (ex->sm_count < 1) ex->sm_count = 1;
  if (ex->max_threads_per_sm < 256) ex->max_threads_per_sm = 256;
  check_cuda(cudaStreamCreateWithFlags(&ex->stream, cudaStreamNonBlocking));
  cudaError_t e = cudaEventCreateWithFlags(&ex->order_ev, cudaEventDisableTiming);
  if (e != cudaSuccess) {
    cudaStreamDestroy(ex->stream);
    throw_cuda(e);
  }
  std::lock_guard<std::mutex> g(owned().mu);
  owned().execs.push_back(ex.get());
  return ex.release();  // lives as long as the process, like the registry's slots
}

// Note [Teardown]
// Execs and allocators live as long as the process, and what they hold
// (cuBLAS and cuDNN handles, workspaces, cached segments) would be given back
// by the driver at exit. A leak
// checker (compute-sanitizer --leak-check full) cannot tell that from a leak,
// so programs that end on purpose call release_libraries() last: the caches
// are emptied, each handle destroyed and each workspace freed, and an exec
// used afterwards makes them again on first use.
void release_libraries() {
  std::lock_guard<std::mutex> g(owned().mu);
  for (Allocator* a : owned().allocators) a->empty_cache();
  for (Exec* ex : owned().execs) {
    DeviceGuard device_guard(ex->device);
    std::lock_guard<std::mutex> lock(ex->mu);
    if (cudaStreamSynchronize(ex->stream) != cudaSuccess) (void)cudaGetLastError();
    if (ex->blas) cublas().destroy(ex->blas);
    ex->blas = nullptr;
    release_cudnn(ex);
    for (void** p : {&ex->blas_workspace, &ex->workspace})
      if (*p && cudaFree(*p) != cudaSuccess) (void)cudaGetLastError();
    ex->blas_workspace = ex->workspace = nullptr;
    ex->workspace_bytes = 0;
  }
}

void synchronize(void* exec) {
  if (!exec) return;
  Exec* ex = as_exec(exec);
  DeviceGuard device_guard(ex->device);
  check_cuda(cudaStreamSynchronize(ex->stream));
}

void* stream_of(void* exec) { return exec ? static_cast<void*>(as_exec(exec)->stream) : nullptr; }

// ---- copies ----

namespace {

// Makes `waiter`'s stream wait for all work queued so far on `ex`'s stream.
void order_after(Exec* ex, cudaStream_t waiter) {
  std::lock_guard<std::mutex> g(ex->order_mu);
  DeviceGuard device_guard(ex->device);
  check_cuda(cudaEventRecord(ex->order_ev, ex->stream));
  check_cuda(cudaStreamWaitEvent(waiter, ex->order_ev, 0));
}

// Direct peer access where the hardware allows it (else the runtime stages
// peer copies through the host). Tried once per ordered pair.
void enable_peer(int dst, int src) {
  static std::mutex mu;
  static bool tried[64][64] = {};
  if (dst < 0 || src < 0 || dst >= 64 || src >= 64) return;
  std::lock_guard<std::mutex> g(mu);
  if (tried[dst][src]) return;
  tried[dst][src] = true;
  int can = 0;
  if (cudaDeviceCanAccessPeer(&can, dst, src) == cudaSuccess && can) {
    DeviceGuard device_guard(dst);
    cudaDeviceEnablePeerAccess(src, 0);  // "already enabled" is fine
  }
  (void)cudaGetLastError();
}

}  // namespace

void memcpy(void* dst, void* dst_exec, const void* src, void* src_exec, size_t n) {
  if (n == 0) return;
  Exec* d = as_exec(dst_exec);
  Exec* s = as_exec(src_exec);
  if (!d && !s) {
    std::memcpy(dst, src, n);
    return;
  }
  if (!s) {  // host -> device: in order after the device's earlier work; the host
             // buffer may be freed on return, so wait for the copy itself
    DeviceGuard device_guard(d->device);
    check_cuda(cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, d->stream));
    check_cuda(cudaStreamSynchronize(d->stream));
    return;
  }
  if (!d) {  // device -> host: ready on return
    DeviceGuard device_guard(s->device);
    check_cuda(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, s->stream));
    check_cuda(cudaStreamSynchronize(s->stream));
    return;
  }
  if (d == s) {
    DeviceGuard device_guard(d->device);
    check_cuda(cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, d->stream));
    return;
  }
  // Two slots (two GPUs, or two virtual slices of one): the copy runs on the
  // destination's stream after the source's pending work, and the source's
  // later work (which may reuse the source block) waits for the copy.
  if (d->device != s->device) enable_peer(d->device, s->device);
  order_after(s, d->stream);
  DeviceGuard device_guard(d->device);
  if (d->device != s->device) check_cuda(cudaMemcpyPeerAsync(dst, d->device, src, s->device, n, d->stream));
  else check_cuda(cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, d->stream));
  order_after(d, s->stream);
}

// ---- events ----

namespace {
struct Event {
  cudaEvent_t ev = nullptr;
  int device = -1;
  bool timing = false;
  bool recorded = false;
};
}  // namespace

void* event_create(bool timing) {
  auto* e = new Event;
  e->timing = timing;
  return e;  // the CUDA event is made on first record, on the recording device
}

void event_destroy(void* p) {
  auto* e = static_cast<Event*>(p);
  if (!e) return;
  if (e->ev) {
    // DeviceGuard's way by hand: this never throws (it runs from destructors).
    int cur = -1;
    const bool switched =
        cudaGetDevice(&cur) == cudaSuccess && cur != e->device && cudaSetDevice(e->device) == cudaSuccess;
    cudaEventDestroy(e->ev);
    if (switched) cudaSetDevice(cur);
    (void)cudaGetLastError();
  }
  delete e;
}

void event_record(void* p, void* exec) {
  auto* e = static_cast<Event*>(p);
  Exec* ex = as_exec(exec);
  if (!ex) throw RuntimeError("CUDA error: invalid resource handle");
  DeviceGuard device_guard(ex->device);
  if (e->ev && e->device != ex->device) {
    DeviceGuard old_device(e->device);
    cudaEventDestroy(e->ev);
    (void)cudaGetLastError();
    e->ev = nullptr;
  }
  if (!e->ev) {
    check_cuda(cudaEventCreateWithFlags(&e->ev, e->timing ? cudaEventDefault : cudaEventDisableTiming));
    e->device = ex->device;
  }
  check_cuda(cudaEventRecord(e->ev, ex->stream));
  e->recorded = true;
}

void event_synchronize(void* p) {
  auto* e = static_cast<Event*>(p);
  if (!e || !e->recorded) return;
  DeviceGuard device_guard(e->device);
  check_cuda(cudaEventSynchronize(e->ev));
}

bool event_query(void* p) {
  auto* e = static_cast<Event*>(p);
  if (!e || !e->recorded) return true;
  DeviceGuard device_guard(e->device);
  cudaError_t r = cudaEventQuery(e->ev);
  if (r == cudaSuccess) return true;
  if (r == cudaErrorNotReady) {
    (void)cudaGetLastError();
    return false;
  }
  throw_cuda(r);
}

float event_elapsed_ms(void* start, void* end) {
  auto* a = static_cast<Event*>(start);
  auto* b = static_cast<Event*>(end);
  // PyTorch's checks, order and wording (c10/cuda CUDAEvent::elapsed_time).
  if (!a || !b || !a->timing || !b->timing)
    throw ValueError("Both events must be created with argument 'enable_timing=True'.");
  if (!a->recorded || !b->recorded) throw ValueError("Both events must be recorded before calculating elapsed time.");
  if (!event_query(a) || !event_query(b))
    throw RuntimeError("Both events must be completed before calculating elapsed time.");
  DeviceGuard device_guard(a->device);
  float ms = 0;
  check_cuda(cudaEventElapsedTime(&ms, a->ev, b->ev));
  return ms;
}

// ---- TF32 ----

void set_allow_tf32(bool on) { g_allow_tf32.store(on, std::memory_order_relaxed); }
bool allow_tf32() { return g_allow_tf32.load(std::memory_order_relaxed); }

}  // namespace gl::cuda
