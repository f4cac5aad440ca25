// torch.cuda: device queries, seeding, synchronisation and events. Memory
// statistics and the nvidia-smi-style table are in cuda_memory.cpp.
#include <string>
#include "bindings/cuda_memory.h"
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "bindings/udata.h"
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

int is_available(lua_State* L) {
  lua_pushboolean(L, cuda_available());
  return 1;
}
int is_initialized(lua_State* L) {
  lua_pushboolean(L, cuda_initialized());
  return 1;
}
int device_count(lua_State* L) {
  lua_pushinteger(L, cuda_device_count());
  return 1;
}
int current_device(lua_State* L) {
  lua_pushinteger(L, current_cuda_device());
  return 1;
}
int set_device(lua_State* L) {
  set_cuda_device(device_arg(L, 1));
  return 0;
}
int get_device_name(lua_State* L) {
  lua_pushstring(L, device_info(device_arg(L, 1)).name.c_str());
  return 1;
}
int is_virtual(lua_State* L) {
  if (!cuda_available()) {
    lua_pushboolean(L, false);
    return 1;
  }
  lua_pushboolean(L, device_info(device_arg(L, 1)).is_virtual);
  return 1;
}
// (major, minor) as a tuple (torch._util.tuple), printed as PyTorch prints it.
int get_device_capability(lua_State* L) {
  DeviceInfo i = device_info(device_arg(L, 1));
  lua_getglobal(L, "torch");
  const bool have_tuple =
      lua_istable(L, -1) && lua_getfield(L, -1, "_util") == LUA_TTABLE && lua_getfield(L, -1, "tuple") == LUA_TFUNCTION;
  lua_createtable(L, 2, 0);
  lua_pushinteger(L, i.major);
  lua_rawseti(L, -2, 1);
  lua_pushinteger(L, i.minor);
  lua_rawseti(L, -2, 2);
  if (have_tuple) lua_call(L, 1, 1);
  return 1;
}
int get_device_properties(lua_State* L) {
  DeviceInfo i = device_info(device_arg(L, 1));
  lua_createtable(L, 0, 11);
  auto set_int = [L](const char* k, int64_t v) {
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k);
  };
  lua_pushstring(L, i.name.c_str());
  lua_setfield(L, -2, "name");
  set_int("major", i.major);
  set_int("minor", i.minor);
  set_int("total_memory", i.total_memory);
  set_int("multi_processor_count", i.sms);
  lua_pushboolean(L, i.is_virtual);
  lua_setfield(L, -2, "is_virtual");
  std::string repr = cat("_CudaDeviceProperties(name='", i.name, "', major=", i.major, ", minor=", i.minor,
                         ", total_memory=", i.total_memory / (1024 * 1024), "MB, multi_processor_count=", i.sms);
  if (!i.uuid.empty()) {  // a GPU: PyTorch's further fields
    lua_pushstring(L, i.uuid.c_str());
    lua_setfield(L, -2, "uuid");
    set_int("pci_bus_id", i.pci_bus_id);
    set_int("pci_device_id", i.pci_device_id);
    set_int("pci_domain_id", i.pci_domain_id);
    set_int("L2_cache_size", i.l2_cache_size);
    repr += cat(", uuid=", i.uuid, ", pci_bus_id=", i.pci_bus_id, ", pci_device_id=", i.pci_device_id,
                ", pci_domain_id=", i.pci_domain_id, ", L2_cache_size=", i.l2_cache_size / (1024 * 1024), "MB");
  }
  repr += ")";
  lua_createtable(L, 0, 1);
  lua_pushstring(L, repr.c_str());
  lua_pushcclosure(
      L,
      [](lua_State* L) -> int {
        lua_pushvalue(L, lua_upvalueindex(1));
        return 1;
      },
      1);
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
// ---- Event ----
const char* kEventMT = "torch.cuda.Event";
Event& ev(lua_State* L, int i) {
  auto* e = ud_test<Event*>(L, i, UdTag::Event);
  if (!e || !*e) throw TypeError("expected a torch.cuda.Event");
  return **e;
}
int event_new(lua_State* L) {
  Args a(L, 1, "Event");
  bool timing = a.boolean(0, "enable_timing", false);
  Event** p = ud_push<Event*>(L, UdTag::Event, kEventMT, nullptr);
  *p = new Event(timing);
  return 1;
}
int event_gc(lua_State* L) {
  if (auto** p = ud_test<Event*>(L, 1, UdTag::Event); p && *p) {
    delete *p;
    *p = nullptr;
  }
  return 0;
}
int event_record(lua_State* L) {
  ev(L, 1).record(Device(Device::CUDA));
  return 0;
}
int event_synchronize(lua_State* L) {
  ev(L, 1).synchronize();
  return 0;
}
int event_query(lua_State* L) {
  lua_pushboolean(L, ev(L, 1).query());
  return 1;
}
int event_elapsed(lua_State* L) {
  lua_pushnumber(L, ev(L, 1).elapsed_ms(ev(L, 2)));
  return 1;
}

}  // namespace

void open_cuda(lua_State* L) {
  static const Reg fns[] = {
      {"is_available", is_available, "torch.cuda.is_available(): is there at least one CUDA device (real or virtual)?"},
      {"device_count", device_count, "torch.cuda.device_count()."},
      {"is_initialized", is_initialized,
       "torch.cuda.is_initialized(): has CUDA started (a first tensor or query on a device)?"},
      {"current_device", current_device, "torch.cuda.current_device(): what 'cuda' means."},
      {"set_device", set_device, "torch.cuda.set_device(i): change what 'cuda' means."},
      {"get_device_name", get_device_name, "torch.cuda.get_device_name(i): the GPU's name (virtual devices say so)."},
      {"get_device_properties", get_device_properties,
       "torch.cuda.get_device_properties(i): name, total_memory, multi_processor_count, major, minor."},
      {"get_device_capability", get_device_capability, "torch.cuda.get_device_capability(i) -> {major, minor}."},
      {"is_virtual", is_virtual,
       "torch.cuda.is_virtual(i): is this device emulated or a slice of a GPU? (gpulab only)"},
      {"manual_seed", manual_seed, "torch.cuda.manual_seed(seed): seed the current device."},
      {"manual_seed_all", manual_seed_all, "torch.cuda.manual_seed_all(seed): seed every device."},
      {"synchronize", synchronize, "torch.cuda.synchronize(device): wait for the device's queued work."},
      {"Event", event_new, "torch.cuda.Event{enable_timing=true}: record(), synchronize(), elapsed_time(end) in ms."},
      {nullptr, nullptr, nullptr}};
  ud_set_finalizer(UdTag::Event, event_gc);
  luaL_newmetatable(L, kEventMT);
  ud_set_gc(L, -1);  // Note [One finalizer]
  lua_newtable(L);
  static const Reg methods[] = {{"record", event_record, "e:record()"},
                                {"synchronize", event_synchronize, "e:synchronize()"},
                                {"query", event_query, "e:query()"},
                                {"elapsed_time", event_elapsed, "start:elapsed_time(end) -> ms"},
                                {nullptr, nullptr, nullptr}};
  set_functions(L, methods, "Event.", true);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  lua_newtable(L);
  set_functions(L, fns, "cuda.");
  open_cuda_setup(L);
  open_cuda_memory(L);
}

}  // namespace gl::lt
