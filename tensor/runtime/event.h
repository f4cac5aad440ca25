// torch.cuda.Event: a CUDA event on a real device; a host timestamp on a
// virtual device emulated in host memory (its work is synchronous anyway).
#pragma once
#include <chrono>
#include "tensor/core/device.h"

namespace gl {

class Event {
 public:
  explicit Event(bool enable_timing = true) : timing_(enable_timing) {}
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(Device d);  // on d's stream ("cuda" = current device)
  void synchronize();
  bool query();
  float elapsed_ms(const Event& end) const;  // throws unless both recorded with timing

 private:
  bool timing_;
  bool recorded_ = false;
  bool host_ = true;
  void* ev_ = nullptr;
  std::chrono::steady_clock::time_point t_;
};

// Per-device memory numbers for torch.cuda and smi().
struct DeviceMemory {
  int64_t allocated, peak_allocated, reserved, peak_reserved, free, total;
};
DeviceMemory device_memory(int device);
void reset_peak_memory(int device);
void empty_cache(int device);
struct DeviceInfo {
  std::string name;
  bool is_virtual;
  bool host_memory;
  int64_t total_memory;
  int major, minor, sms;
  int util;
  int temp;
  int power;
  // A GPU's (empty uuid on emulated devices): PyTorch's repr shows them.
  std::string uuid;
  int pci_bus_id = 0, pci_device_id = 0, pci_domain_id = 0;
  int64_t l2_cache_size = 0;
};
DeviceInfo device_info(int device);

}  // namespace gl
