// nvidia-smi's view of a GPU, from NVML loaded at run time (dlopen), so the
// program neither links against nor needs libnvidia-ml. The few NVML types
// used are declared here with NVML's documented layouts.
#include <unistd.h>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>
#include "tensor/runtime/cuda_api.h"
#include "tensor/runtime/dl_library.h"

namespace gl::cuda {

namespace {

using nvmlReturn_t = int;  // NVML_SUCCESS == 0
using nvmlDevice_t = struct nvmlDevice_st*;
struct nvmlMemory_t {
  unsigned long long total, free, used;
};
struct nvmlProcessInfo_v1_t {  // what the unversioned nvmlDeviceGetComputeRunningProcesses fills
  unsigned int pid;
  unsigned long long usedGpuMemory;
};
struct nvmlUtilization_t {
  unsigned int gpu, memory;
};
constexpr int kNvmlTemperatureGpu = 0;  // NVML_TEMPERATURE_GPU

struct Nvml {
  bool ok = false;
  nvmlReturn_t (*init)() = nullptr;
  nvmlReturn_t (*by_index)(unsigned int, nvmlDevice_t*) = nullptr;
  nvmlReturn_t (*by_uuid)(const char*, nvmlDevice_t*) = nullptr;
  nvmlReturn_t (*memory)(nvmlDevice_t, nvmlMemory_t*) = nullptr;
  nvmlReturn_t (*utilization)(nvmlDevice_t, nvmlUtilization_t*) = nullptr;
  nvmlReturn_t (*temperature)(nvmlDevice_t, int, unsigned int*) = nullptr;
  nvmlReturn_t (*power)(nvmlDevice_t, unsigned int*) = nullptr;
  nvmlReturn_t (*driver_version)(char*, unsigned int) = nullptr;
  nvmlReturn_t (*cuda_version)(int*) = nullptr;
  nvmlReturn_t (*processes)(nvmlDevice_t, unsigned int*, nvmlProcessInfo_v1_t*) = nullptr;
};

const Nvml& nvml() {
  static Nvml n;
  static DlLibrary lib("libnvidia-ml.so.1", /*toolkit_dirs=*/false);
  lib.load([](DlLibrary& l) {
    bool ok = l.sym("nvmlInit_v2", &n.init) && l.sym("nvmlDeviceGetHandleByIndex_v2", &n.by_index) &&
              l.sym("nvmlDeviceGetMemoryInfo", &n.memory) && l.sym("nvmlDeviceGetUtilizationRates", &n.utilization) &&
              l.sym("nvmlDeviceGetTemperature", &n.temperature) && l.sym("nvmlDeviceGetPowerUsage", &n.power);
    // Optional: dlsym directly, so that their absence is not recorded as the error.
    n.by_uuid = reinterpret_cast<decltype(n.by_uuid)>(l.find("nvmlDeviceGetHandleByUUID"));
    n.driver_version = reinterpret_cast<decltype(n.driver_version)>(l.find("nvmlSystemGetDriverVersion"));
    n.cuda_version = reinterpret_cast<decltype(n.cuda_version)>(l.find("nvmlSystemGetCudaDriverVersion"));
    n.processes = reinterpret_cast<decltype(n.processes)>(l.find("nvmlDeviceGetComputeRunningProcesses"));
    n.ok = ok && n.init() == 0;  // the library stays loaded: it is process-wide state
    return n.ok;
  });
  return n;
}

// NVML's handle of CUDA device `phys`, or null.
nvmlDevice_t nvml_device(const Nvml& n, int phys) {
  if (phys < 0 || phys >= device_count() || !n.ok) return nullptr;
  // NVML numbers GPUs its own way (CUDA_VISIBLE_DEVICES does not apply), so
  // find the device by the UUID the CUDA runtime reports.
  nvmlDevice_t dev = nullptr;
  if (n.by_uuid) {
    const std::string uuid = properties(phys).uuid;
    if (n.by_uuid(("GPU-" + uuid).c_str(), &dev) == 0 || n.by_uuid(("MIG-" + uuid).c_str(), &dev) == 0) return dev;
  }
  // NVML's index is the CUDA ordinal only while CUDA_VISIBLE_DEVICES leaves
  // the order alone; otherwise a wrong GPU's figures are worse than none.
  if (std::getenv("CUDA_VISIBLE_DEVICES") || n.by_index(unsigned(phys), &dev) != 0) return nullptr;
  return dev;
}

}  // namespace

std::string smi_process_report(int phys) {
  try {
    const Nvml& n = nvml();
    nvmlDevice_t dev = nvml_device(n, phys);
    if (!dev || !n.processes) return {};
    std::vector<nvmlProcessInfo_v1_t> procs(8);
    unsigned int size = unsigned(procs.size());
    constexpr int kInsufficientSize = 7;  // NVML_ERROR_INSUFFICIENT_SIZE
    nvmlReturn_t r;
    while ((r = n.processes(dev, &size, procs.data())) == kInsufficientSize) procs.resize(size);
    if (r != 0) return {};
    const unsigned int self = unsigned(getpid());
    std::string out;
    for (unsigned int i = 0; i < size; ++i) {
      out += procs[i].pid == self ? std::string("Including non-PyTorch memory, this process")
                                  : "Process " + std::to_string(procs[i].pid);
      out += " has " + format_bytes(int64_t(procs[i].usedGpuMemory)) + " memory in use. ";
    }
    return out;
  } catch (...) { return {}; }
}

bool smi_query(int phys, SmiRow* row) {
  try {
    const Nvml& n = nvml();
    nvmlDevice_t dev = nvml_device(n, phys);
    if (!dev) return false;
    nvmlMemory_t mem{};
    if (n.memory(dev, &mem) != 0) return false;
    row->used = int64_t(mem.used);
    row->total = int64_t(mem.total);
    nvmlUtilization_t util{};
    row->util_gpu = n.utilization(dev, &util) == 0 ? int(util.gpu) : -1;
    unsigned int t = 0;
    row->temp_c = n.temperature(dev, kNvmlTemperatureGpu, &t) == 0 ? int(t) : -1;
    unsigned int mw = 0;
    row->power_w = n.power(dev, &mw) == 0 ? int(mw / 1000) : -1;
    return true;
  } catch (...) { return false; }
}

bool smi_versions(std::string* driver, std::string* cuda) {
  const Nvml& n = nvml();
  if (!n.ok || !n.driver_version || !n.cuda_version) return false;
  char buf[96] = {};
  int v = 0;
  if (n.driver_version(buf, sizeof buf) != 0 || n.cuda_version(&v) != 0) return false;
  *driver = buf;
  *cuda = std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);  // 12040 -> "12.4"
  return true;
}

}  // namespace gl::cuda
