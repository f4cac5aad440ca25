#include "tensor/runtime/registry.h"
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <sstream>
#include <vector>
#include "tensor/core/error.h"
#include "tensor/kernels/cpu/generator.h"
#include "tensor/runtime/generator_state.h"
#include "tensor/runtime/cuda_api.h"
#include "tensor/runtime/caching_allocator.h"
#include "tensor/runtime/host_allocator.h"
#include "tensor/runtime/trace.h"

namespace gl {

namespace {

constexpr int64_t kDefaultVirtualCapacity = int64_t(16) << 30;

struct Registry {
  HostAllocator cpu_alloc;
  CpuExec cpu_exec;
  DeviceSlot cpu;
  // Note [Lazy CUDA]: nothing below is touched until a program first names a
  // CUDA device, so CPU-only scripts never pay for driver initialisation.
  std::once_flag cuda_once;
  int virtual_n = -1;  // -1: not configured (GPULAB_VIRTUAL_GPUS may still say)
  int64_t virtual_cap = kDefaultVirtualCapacity;
  std::vector<DeviceSlot> cuda;
  std::vector<std::unique_ptr<CachingAllocator>> owned_allocs;
  std::vector<std::unique_ptr<CpuExec>> owned_execs;
  int current = 0;
  bool has_pending_seed = false;
  uint64_t pending_seed = 0;
  std::string unavailable;
  bool cuda_ready = false;

  Registry() {
    cpu.alloc = &cpu_alloc;
    cpu.kernels = &cpu_kernels();
    cpu.exec = &cpu_exec;
    cpu.name = "cpu";
  }
};

Registry& reg() {
  static Registry r;
  return r;
}

// CUDA_VISIBLE_DEVICES for emulated devices: the listed ordinals, renumbered,
// stopping at the first that does not exist (as the CUDA runtime does).
std::vector<int> visible_virtual(int n) {
  std::vector<int> out;
  const char* env = std::getenv("CUDA_VISIBLE_DEVICES");
  if (!env) {
    for (int i = 0; i < n; ++i) out.push_back(i);
    return out;
  }
  std::string s = env;
  size_t pos = 0;
  while (pos <= s.size() && !s.empty()) {
    size_t comma = s.find(',', pos);
    std::string tok = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    char* end = nullptr;
    long v = std::strtol(tok.c_str(), &end, 10);
    if (tok.empty() || *end != '\0' || v < 0 || v >= n) break;
    // A repeated ordinal makes the whole list empty, as in PyTorch's
    // _parse_visible_devices (the CUDA runtime refuses it too).
    if (std::find(out.begin(), out.end(), int(v)) != out.end()) return {};
    out.push_back(int(v));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

void init_cuda() {
  Registry& r = reg();
  if (r.virtual_n < 0) {
    if (const char* env = std::getenv("GPULAB_VIRTUAL_GPUS")) {
      int n;
      int64_t cap;
      if (parse_virtual_spec(env, &n, &cap)) {
        r.virtual_n = n;
        r.virtual_cap = cap;
      }
    }
  }
  int phys = cuda::device_count();
  if (phys == 0) r.unavailable = cuda::unavailable_reason();
  // GPULAB_EMULATE_GPUS=1 keeps virtual devices in host memory even beside a
  // real GPU: the golden transcripts need the emulated devices' names and
  // random streams (a GPU's Philox numbers differ from the CPU generator's).
  const char* emulate = std::getenv("GPULAB_EMULATE_GPUS");
  const bool host_only = emulate && emulate[0] != '\0' && std::strcmp(emulate, "0") != 0;
  if (r.virtual_n > 0 && phys > 0 && !host_only) {
    // Logical slices of the first physical GPU, each with its own stream and count.
    auto props = cuda::properties(0);
    for (int i = 0; i < r.virtual_n; ++i) {
      DeviceSlot s;
      s.is_virtual = true;
      s.host_memory = false;
      s.physical = 0;
      s.capacity = std::min<int64_t>(r.virtual_cap, props.total_memory / r.virtual_n);
      s.alloc = cuda::create_allocator(0, s.capacity, i);
      s.exec = cuda::create_exec(0);
      s.kernels = &cuda::kernels();
      s.name = props.name + " (virtual " + std::to_string(i) + " of " + std::to_string(r.virtual_n) + ")";
      r.cuda.push_back(s);
    }
  } else if (r.virtual_n > 0) {
    for (int v : visible_virtual(r.virtual_n)) {
      int i = int(r.cuda.size());
      DeviceSlot s;
      s.is_virtual = true;
      s.host_memory = true;
      s.capacity = r.virtual_cap;
      r.owned_allocs.push_back(std::make_unique<CachingAllocator>(host_segments(), r.virtual_cap, i));
      // its generator starts from PyTorch's default seed, as every CUDA device's does
      r.owned_execs.push_back(std::make_unique<CpuExec>());
      s.alloc = r.owned_allocs.back().get();
      s.exec = r.owned_execs.back().get();
      s.kernels = &cpu_kernels();
      s.name = "gpulab virtual GPU " + std::to_string(v) + " (emulated in host memory)";
      r.cuda.push_back(s);
    }
  } else {
    for (int p = 0; p < phys; ++p) {
      DeviceSlot s;
      s.host_memory = false;
      s.physical = p;
      s.alloc = cuda::create_allocator(p, 0, p);
      s.exec = cuda::create_exec(p);
      s.kernels = &cuda::kernels();
      auto props = cuda::properties(p);
      s.capacity = props.total_memory;
      s.name = props.name;
      r.cuda.push_back(s);
    }
  }
  if (r.has_pending_seed)
    for (auto& s : r.cuda) s.kernels->seed(s.exec, r.pending_seed);
  r.cuda_ready = true;
}

std::vector<DeviceSlot>& cuda_slots() {
  Registry& r = reg();
  std::call_once(r.cuda_once, init_cuda);
  return r.cuda;
}

}  // namespace

bool parse_virtual_spec(const std::string& spec, int* n, int64_t* capacity) {
  char* end = nullptr;
  long v = std::strtol(spec.c_str(), &end, 10);
  if (end == spec.c_str() || v < 0 || v > 64) return false;
  *n = int(v);
  *capacity = kDefaultVirtualCapacity;
  if (*end == '\0') return true;
  if (*end != ':') return false;
  char* unit = nullptr;
  double amount = std::strtod(end + 1, &unit);
  if (unit == end + 1 || amount <= 0) return false;
  std::string u = unit;
  double mult = u == "GiB" || u == "G" || u == "GB"   ? 1073741824.0
                : u == "MiB" || u == "M" || u == "MB" ? 1048576.0
                : u == "KiB" || u == "K" || u == "KB" ? 1024.0
                : u.empty()                           ? 1.0
                                                      : 0.0;
  if (mult == 0.0) return false;
  *capacity = int64_t(amount * mult);
  return *capacity > 0;
}

void configure_virtual_devices(int n, int64_t capacity_bytes) {
  Registry& r = reg();
  r.virtual_n = n;
  r.virtual_cap = capacity_bytes > 0 ? capacity_bytes : kDefaultVirtualCapacity;
  // A first CUDA use that found no device fixed nothing that could be in use:
  // discover again, so that virtual devices can still be switched on then.
  if (r.cuda_ready && r.cuda.empty() && n > 0) init_cuda();
}

bool cuda_initialized() { return reg().cuda_ready; }

int configured_virtual_devices() {
  Registry& r = reg();
  if (r.virtual_n >= 0) return r.virtual_n;
  int n = 0;
  int64_t cap = 0;
  const char* env = std::getenv("GPULAB_VIRTUAL_GPUS");
  return env && parse_virtual_spec(env, &n, &cap) ? n : 0;
}

int physical_cuda_device_count() { return cuda::device_count(); }

int cuda_device_count() { return int(cuda_slots().size()); }
bool cuda_available() { return cuda_device_count() > 0; }

std::string cuda_unavailable_message() {
  cuda_slots();
  return reg().unavailable.empty() ? "no CUDA-capable device is detected" : reg().unavailable;
}

namespace {
[[noreturn]] void throw_no_cuda() {
  if (reg().virtual_n > 0)  // virtual devices exist, but CUDA_VISIBLE_DEVICES hides them all
    throw RuntimeError("no CUDA-capable device is detected",
                       "CUDA_VISIBLE_DEVICES='" +
                           std::string(std::getenv("CUDA_VISIBLE_DEVICES") ? std::getenv("CUDA_VISIBLE_DEVICES") : "") +
                           "' hides all " + std::to_string(reg().virtual_n) + " virtual GPUs");
  throw RuntimeError(
      cuda_unavailable_message(),
      "this machine has no usable GPU: torch.cuda.use_virtual(2) emulates two (or start gpulab with --virtual-gpus 2)");
}
}  // namespace

const DeviceSlot& slot_for(Device d) {
  if (d.is_cpu()) return reg().cpu;
  auto& slots = cuda_slots();
  if (slots.empty()) throw_no_cuda();
  int i = d.has_index() ? d.index : reg().current;
  if (i >= int(slots.size()))
    throw RuntimeError(
        "CUDA error: invalid device ordinal",
        cat("there ", slots.size() == 1 ? "is 1 CUDA device" : "are " + std::to_string(slots.size()) + " CUDA devices",
            ": cuda:0 to cuda:", slots.size() - 1));
  return slots[i];
}

Allocator& allocator_for(Device d) { return *slot_for(d).alloc; }

Device resolve_device(Device d) {
  if (d.is_cpu()) return Device(Device::CPU);
  slot_for(d);  // validates
  return Device(Device::CUDA, d.has_index() ? d.index : reg().current);
}

int current_cuda_device() {
  if (cuda_slots().empty()) throw_no_cuda();
  return reg().current;
}

void set_cuda_device(int i) {
  slot_for(Device(Device::CUDA, i));
  GL_CHECK(i >= 0, "CUDA error: invalid device ordinal");
  reg().current = i;
}

void synchronize_device(Device d) {
  const DeviceSlot& s = slot_for(d);
  {
    trace::SyncReason why("synchronize");
    trace::sync(d);
  }
  if (!s.host_memory) cuda::synchronize(s.exec);
}

void synchronize_all() {
  for (auto& s : cuda_slots())
    if (!s.host_memory) cuda::synchronize(s.exec);
}

namespace {
std::atomic<Allocator*> g_pinned{nullptr};  // set once; read by is_pinned on any thread
}

Allocator& pinned_allocator() {
  static std::mutex mu;
  std::lock_guard<std::mutex> g(mu);
  if (!g_pinned) {  // lives as long as the process, like the devices' allocators
    if (cuda::device_count() > 0) g_pinned = new CachingAllocator(cuda::pinned_segments(), 0, -1);
    else if (cuda_available()) g_pinned = new CachingAllocator(host_segments(), 0, -1);
  }
  // PyTorch says why there is no CUDA (no driver, no device): gpulab the same.
  GL_CHECK(g_pinned != nullptr, cuda_unavailable_message());
  return *g_pinned.load();
}

bool is_pinned_allocator(const Allocator* a) { return a && a == g_pinned; }

void release_devices() {
  // Execs and allocators made outside the registry (the unit tests') too.
  cuda::release_libraries();
}

void copy_bytes(void* dst, Device dd, const void* src, Device sd, size_t n) {
  if (n == 0) return;
  trace::copy(sd, dd, n);
  if (dd.is_cpu()) trace::sync(sd);  // the host waits for the bytes it reads
  const DeviceSlot& ds = slot_for(dd);
  const DeviceSlot& ss = slot_for(sd);
  if (ds.host_memory && ss.host_memory) {
    std::memcpy(dst, src, n);
    return;
  }
  cuda::memcpy(dst, ds.host_memory ? nullptr : ds.exec, src, ss.host_memory ? nullptr : ss.exec, n);
}

void manual_seed_cpu(uint64_t seed) { reg().cpu.kernels->seed(reg().cpu.exec, seed); }

std::string cpu_generator_state() {
  CpuGenerator& g = reg().cpu_exec.gen;
  std::lock_guard<std::mutex> lock(g.mu);
  std::ostringstream out;
  out << g.engine << ' ' << g.has_next_normal << ' ' << std::hexfloat << g.next_normal;
  return out.str();
}

void set_cpu_generator_state(const std::string& state) {
  CpuGenerator& g = reg().cpu_exec.gen;
  std::lock_guard<std::mutex> lock(g.mu);
  std::istringstream in(state);
  std::mt19937 engine;
  bool has = false;
  std::string next;
  in >> engine >> has >> next;
  GL_CHECK(!in.fail(), "set_cpu_generator_state: not a state that cpu_generator_state() returned");
  g.engine = engine;
  g.has_next_normal = has;
  g.next_normal = std::strtod(next.c_str(), nullptr);  // hexfloat: operator>> does not read it
}

void manual_seed_cuda(int device, uint64_t seed) {
  const DeviceSlot& s = slot_for(Device(Device::CUDA, device));
  s.kernels->seed(s.exec, seed);
}

void manual_seed_all_devices(uint64_t seed) {
  manual_seed_cpu(seed);
  Registry& r = reg();
  r.has_pending_seed = true;  // devices created later start from this seed too
  r.pending_seed = seed;
  // Reseed devices that already exist; never initialise CUDA just for a seed.
  if (r.cuda_ready)
    for (auto& s : r.cuda) s.kernels->seed(s.exec, seed);
}

void mem_get_info(int device, int64_t* free_bytes, int64_t* total_bytes) {
  const DeviceSlot& s = slot_for(Device(Device::CUDA, device));
  if (s.is_virtual) {
    auto st = s.alloc->stats();
    *total_bytes = s.capacity;
    *free_bytes = s.capacity - st.reserved;
    return;
  }
  cuda::mem_get_info(s.physical, free_bytes, total_bytes);
}

}  // namespace gl
