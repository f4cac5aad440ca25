#include "tensor/runtime/event.h"
#include "tensor/core/error.h"
#include "tensor/runtime/cuda_api.h"
#include "tensor/runtime/registry.h"

namespace gl {

Event::~Event() {
  if (ev_) cuda::event_destroy(ev_);
}

void Event::record(Device d) {
  const DeviceSlot& s = slot_for(resolve_device(d.is_cpu() ? Device(Device::CUDA) : d));
  host_ = s.host_memory;
  if (host_) {
    t_ = std::chrono::steady_clock::now();
  } else {
    if (!ev_) ev_ = cuda::event_create(timing_);
    cuda::event_record(ev_, s.exec);
  }
  recorded_ = true;
}

void Event::synchronize() {
  if (recorded_ && !host_) cuda::event_synchronize(ev_);
}

bool Event::query() { return !recorded_ || host_ || cuda::event_query(ev_); }

float Event::elapsed_ms(const Event& end) const {
  GL_CHECK(timing_ && end.timing_, "Both events must be created with argument 'enable_timing=True'.");
  GL_CHECK(recorded_ && end.recorded_, "Both events must be recorded before calculating elapsed time.");
  if (host_ && end.host_) return std::chrono::duration<float, std::milli>(end.t_ - t_).count();
  GL_CHECK(!host_ && !end.host_, "events were recorded on different kinds of device");
  return cuda::event_elapsed_ms(ev_, end.ev_);
}

DeviceMemory device_memory(int device) {
  const DeviceSlot& s = slot_for(Device(Device::CUDA, device));
  AllocStats st = s.alloc->stats();
  DeviceMemory m{st.allocated, st.peak_allocated, st.reserved, st.peak_reserved, 0, 0};
  mem_get_info(device, &m.free, &m.total);
  return m;
}

void reset_peak_memory(int device) { slot_for(Device(Device::CUDA, device)).alloc->reset_peak(); }
void empty_cache(int device) { slot_for(Device(Device::CUDA, device)).alloc->empty_cache(); }

DeviceInfo device_info(int device) {
  const DeviceSlot& s = slot_for(Device(Device::CUDA, device));
  DeviceInfo i{s.name, s.is_virtual, s.host_memory, s.capacity, 0, 0, 0, -1, -1, -1, "", 0, 0, 0, 0};
  if (s.physical >= 0) {
    auto p = cuda::properties(s.physical);
    i.major = p.major;
    i.minor = p.minor;
    i.sms = p.multi_processor_count;
    if (!s.is_virtual) i.total_memory = p.total_memory;
    i.uuid = p.uuid;
    i.pci_bus_id = p.pci_bus_id;
    i.pci_device_id = p.pci_device_id;
    i.pci_domain_id = p.pci_domain_id;
    i.l2_cache_size = p.l2_cache_size;
    cuda::SmiRow row;
    if (cuda::smi_query(s.physical, &row)) {
      i.util = row.util_gpu;
      i.temp = row.temp_c;
      i.power = row.power_w;
    }
  }
  return i;
}

}  // namespace gl
