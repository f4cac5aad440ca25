// torch.cuda: device queries, seeding, synchronisation, memory statistics,
// events and an nvidia-smi-style table.
#include <cstdio>
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/core/error.h"
#include "tensor/runtime/event.h"
#include "tensor/runtime/registry.h"

namespace gl::lt {

namespace {

int device_arg(lua_State* L, int idx) {
  if (lua_isnoneornil(L, idx)) return current_cuda_device();
  auto d = to_device(L, idx);
  if (!d) type_error("cuda", "device", "a torch.device or int", type_name(L, idx));
  GL_CHECK(d->is_cuda(), "Expected a cuda device, but got: ", d->str());
  return resolve_device(*d).index;
}

int is_available(lua_State* L) { lua_pushboolean(L, cuda_available()); return 1; }
int device_count(lua_State* L) { lua_pushinteger(L, cuda_device_count()); return 1; }
int current_device(lua_State* L) { lua_pushinteger(L, current_cuda_device()); return 1; }
int set_device(lua_State* L) { set_cuda_device(device_arg(L, 1)); return 0; }
int get_device_name(lua_State* L) { lua_pushstring(L, device_info(device_arg(L, 1)).name.c_str()); return 1; }
int is_virtual(lua_State* L) {
  if (!cuda_available()) { lua_pushboolean(L, false); return 1; }
  lua_pushboolean(L, device_info(device_arg(L, 1)).is_virtual);
  return 1;
}
int get_device_capability(lua_State* L) {
  DeviceInfo i = device_info(device_arg(L, 1));
  lua_createtable(L, 2, 0);
  lua_pushinteger(L, i.major);
  lua_rawseti(L, -2, 1);
  lua_pushinteger(L, i.minor);
  lua_rawseti(L, -2, 2);
  return 1;
}
int get_device_properties(lua_State* L) {
  DeviceInfo i = device_info(device_arg(L, 1));
  lua_createtable(L, 0, 8);
  lua_pushstring(L, i.name.c_str()); lua_setfield(L, -2, "name");
  lua_pushinteger(L, i.major); lua_setfield(L, -2, "major");
  lua_pushinteger(L, i.minor); lua_setfield(L, -2, "minor");
  lua_pushinteger(L, i.total_memory); lua_setfield(L, -2, "total_memory");
  lua_pushinteger(L, i.sms); lua_setfield(L, -2, "multi_processor_count");
  lua_pushboolean(L, i.is_virtual); lua_setfield(L, -2, "is_virtual");
  char buf[256];
  std::snprintf(buf, sizeof buf, "_CudaDeviceProperties(name='%s', major=%d, minor=%d, total_memory=%lldMB, multi_processor_count=%d)",
                i.name.c_str(), i.major, i.minor, (long long)(i.total_memory / (1024 * 1024)), i.sms);
  lua_createtable(L, 0, 1);
  lua_pushstring(L, buf);
  lua_pushcclosure(L, [](lua_State* L) -> int { lua_pushvalue(L, lua_upvalueindex(1)); return 1; }, 1);
  lua_setfield(L, -2, "__tostring");
  lua_setmetatable(L, -2);
  return 1;
}
int manual_seed(lua_State* L) {
  Args a(L, 1, "manual_seed");
  int64_t s = a.integer(0, "seed");
  if (cuda_available()) manual_seed_cuda(current_cuda_device(), uint64_t(s));
  return 0;
}
int manual_seed_all(lua_State* L) {
  Args a(L, 1, "manual_seed_all");
  int64_t s = a.integer(0, "seed");
  for (int i = 0; i < cuda_device_count(); ++i) manual_seed_cuda(i, uint64_t(s));
  return 0;
}
int synchronize(lua_State* L) {
  if (lua_isnoneornil(L, 1)) synchronize_device(Device(Device::CUDA, current_cuda_device()));
  else synchronize_device(Device(Device::CUDA, device_arg(L, 1)));
  return 0;
}
int mem_get_info_(lua_State* L) {
  int64_t f, t;
  mem_get_info(device_arg(L, 1), &f, &t);
  lua_pushinteger(L, f);
  lua_pushinteger(L, t);
  return 2;
}
int memory_allocated(lua_State* L) { lua_pushinteger(L, device_memory(device_arg(L, 1)).allocated); return 1; }
int max_memory_allocated(lua_State* L) { lua_pushinteger(L, device_memory(device_arg(L, 1)).peak_allocated); return 1; }
int memory_reserved(lua_State* L) { lua_pushinteger(L, device_memory(device_arg(L, 1)).reserved); return 1; }
int max_memory_reserved(lua_State* L) { lua_pushinteger(L, device_memory(device_arg(L, 1)).peak_reserved); return 1; }
int reset_peak(lua_State* L) { reset_peak_memory(device_arg(L, 1)); return 0; }
int empty_cache_(lua_State* L) {
  for (int i = 0; i < cuda_device_count(); ++i) empty_cache(i);
  return 0;
}

int smi(lua_State* L) {
  std::string out;
  char line[256];
  const int n = cuda_device_count();
  out += "+-----+----------------------------------------------------+------------------------+------+\n";
  out += "| GPU | Name                                               |      Memory-Usage      | Util |\n";
  out += "+=====+====================================================+========================+======+\n";
  for (int i = 0; i < n; ++i) {
    DeviceInfo info = device_info(i);
    DeviceMemory m = device_memory(i);
    std::string name = info.name + (info.is_virtual && info.name.find("virtual") == std::string::npos ? " [virtual]" : "");
    if (name.size() > 50) name = name.substr(0, 47) + "...";
    int64_t used = info.is_virtual ? m.reserved : m.total - m.free;
    std::string util = info.util >= 0 ? std::to_string(info.util) + "%" : "N/A";
    std::snprintf(line, sizeof line, "| %3d | %-50s | %8lldMiB / %7lldMiB | %4s |\n", i, name.c_str(),
                  (long long)(used >> 20), (long long)(m.total >> 20), util.c_str());
    out += line;
  }
  out += "+-----+----------------------------------------------------+------------------------+------+\n";
  if (n == 0) out += "No CUDA devices: " + cuda_unavailable_message() + "\n";
  lua_pushlstring(L, out.data(), out.size());
  return 1;
}

// ---- Event ----
const char* kEventMT = "torch.cuda.Event";
Event& ev(lua_State* L, int i) {
  auto* e = static_cast<Event**>(luaL_testudata(L, i, kEventMT));
  if (!e || !*e) throw TypeError("expected a torch.cuda.Event");
  return **e;
}
int event_new(lua_State* L) {
  Args a(L, 1, "Event");
  bool timing = a.boolean(0, "enable_timing", false);
  auto** p = static_cast<Event**>(lua_newuserdatauv(L, sizeof(Event*), 0));
  *p = nullptr;
  luaL_setmetatable(L, kEventMT);
  *p = new Event(timing);
  return 1;
}
int event_gc(lua_State* L) {
  if (auto** p = static_cast<Event**>(luaL_testudata(L, 1, kEventMT)); p && *p) { delete *p; *p = nullptr; }
  return 0;
}
int event_record(lua_State* L) { ev(L, 1).record(Device(Device::CUDA)); return 0; }
int event_synchronize(lua_State* L) { ev(L, 1).synchronize(); return 0; }
int event_query(lua_State* L) { lua_pushboolean(L, ev(L, 1).query()); return 1; }
int event_elapsed(lua_State* L) { lua_pushnumber(L, ev(L, 1).elapsed_ms(ev(L, 2))); return 1; }

}  // namespace

void open_cuda(lua_State* L) {
  static const Reg fns[] = {
      {"is_available", is_available, "torch.cuda.is_available(): is there at least one CUDA device (real or virtual)?"},
      {"device_count", device_count, "torch.cuda.device_count()."},
      {"current_device", current_device, "torch.cuda.current_device(): what 'cuda' means."},
      {"set_device", set_device, "torch.cuda.set_device(i): change what 'cuda' means."},
      {"get_device_name", get_device_name, "torch.cuda.get_device_name(i): the GPU's name (virtual devices say so)."},
      {"get_device_properties", get_device_properties, "torch.cuda.get_device_properties(i): name, total_memory, multi_processor_count, major, minor."},
      {"get_device_capability", get_device_capability, "torch.cuda.get_device_capability(i) -> {major, minor}."},
      {"is_virtual", is_virtual, "torch.cuda.is_virtual(i): is this device emulated or a slice of a GPU? (gpulab only)"},
      {"manual_seed", manual_seed, "torch.cuda.manual_seed(seed): seed the current device."},
      {"manual_seed_all", manual_seed_all, "torch.cuda.manual_seed_all(seed): seed every device."},
      {"synchronize", synchronize, "torch.cuda.synchronize(device): wait for the device's queued work."},
      {"mem_get_info", mem_get_info_, "torch.cuda.mem_get_info(i) -> free, total (bytes)."},
      {"memory_allocated", memory_allocated, "torch.cuda.memory_allocated(i): bytes held by tensors."},
      {"max_memory_allocated", max_memory_allocated, "torch.cuda.max_memory_allocated(i)."},
      {"memory_reserved", memory_reserved, "torch.cuda.memory_reserved(i): bytes held by the caching allocator."},
      {"max_memory_reserved", max_memory_reserved, "torch.cuda.max_memory_reserved(i)."},
      {"reset_peak_memory_stats", reset_peak, "torch.cuda.reset_peak_memory_stats(i)."},
      {"empty_cache", empty_cache_, "torch.cuda.empty_cache(): give cached blocks back to the driver."},
      {"smi", smi, "torch.cuda.smi(): an nvidia-smi-style table of the devices (print it)."},
      {"Event", event_new, "torch.cuda.Event{enable_timing=true}: record(), synchronize(), elapsed_time(end) in ms."},
      {nullptr, nullptr, nullptr}};
  luaL_newmetatable(L, kEventMT);
  static const Reg meta[] = {{"__gc", event_gc, nullptr}, {nullptr, nullptr, nullptr}};
  set_functions(L, meta);
  lua_newtable(L);
  static const Reg methods[] = {{"record", event_record, "e:record()"}, {"synchronize", event_synchronize, "e:synchronize()"},
                                {"query", event_query, "e:query()"}, {"elapsed_time", event_elapsed, "start:elapsed_time(end) -> ms"},
                                {nullptr, nullptr, nullptr}};
  set_functions(L, methods, "Event.", true);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  lua_newtable(L);
  set_functions(L, fns, "cuda.");
}

}  // namespace gl::lt
