// torch.cuda's memory statistics. Python frees a tensor at `del`; Lua frees it
// when its collector runs, so every function here first runs a full collection
// (through the runtime's memory-pressure hooks), and the caching allocator runs
// one before it asks the device for more: numbers and out-of-memory errors are
// then those a GPU would give.
#include "bindings/cuda_memory.h"
#include "bindings/luaT.h"
#include "tensor/core/error.h"
#include "tensor/runtime/event.h"
#include "tensor/runtime/memory_pressure.h"
#include "tensor/runtime/memory_report.h"
#include "tensor/runtime/registry.h"

namespace gl::lt {

namespace {

int device_at(lua_State* L, int idx) {
  if (idx == 0 || lua_isnoneornil(L, idx)) return current_cuda_device();
  auto d = to_device(L, idx);
  if (!d) type_error("cuda", "device", "a torch.device or int", type_name(L, idx));
  GL_CHECK(d->is_cuda(), "Expected a cuda device, but got: ", d->str());
  return resolve_device(*d).index;
}

// As in PyTorch, statistics read before CUDA is first used are zeros (and
// initialise nothing: torch.cuda.use_virtual may still follow).
MemoryStats stats_at(lua_State* L, int idx) {
  if (!cuda_initialized()) return MemoryStats{};
  return device_memory_stats(device_at(L, idx));
}

int memory_allocated(lua_State* L) {
  lua_pushinteger(L, stats_at(L, 1).allocated_bytes[kAllPools].current);
  return 1;
}
int max_memory_allocated(lua_State* L) {
  lua_pushinteger(L, stats_at(L, 1).allocated_bytes[kAllPools].peak);
  return 1;
}
int memory_reserved(lua_State* L) {
  lua_pushinteger(L, stats_at(L, 1).reserved_bytes[kAllPools].current);
  return 1;
}
int max_memory_reserved(lua_State* L) {
  lua_pushinteger(L, stats_at(L, 1).reserved_bytes[kAllPools].peak);
  return 1;
}
int reset_peak(lua_State* L) {
  reset_peak_memory(device_at(L, 1));
  return 0;
}
int reset_accumulated(lua_State* L) {
  reset_accumulated_memory(device_at(L, 1));
  return 0;
}

int l_empty_cache(lua_State* L) {
  if (!cuda_initialized()) return 0;
  relieve_memory_pressure();  // `big = nil; empty_cache()` gives big's segment back, as `del big` would
  for (int i = 0; i < cuda_device_count(); ++i) empty_cache(i);
  return 0;
}

int l_mem_get_info(lua_State* L) {
  const int d = device_at(L, 1);
  relieve_memory_pressure();
  int64_t f, t;
  mem_get_info(d, &f, &t);
  lua_pushinteger(L, f);
  lua_pushinteger(L, t);
  return 2;
}

// Keys as torch.cuda.memory_stats() names them ("allocated_bytes.all.current").
int memory_stats(lua_State* L) {
  const MemoryStats s = stats_at(L, 1);
  lua_createtable(L, 0, 128);
  if (!cuda_initialized()) return 1;  // PyTorch: {}
  auto set = [L](const std::string& k, int64_t v) {
    lua_pushinteger(L, v);
    lua_setfield(L, -2, k.c_str());
  };
  auto set_stat = [&](const std::string& k, const Stat& st) {
    set(k + ".current", st.current);
    set(k + ".peak", st.peak);
    set(k + ".allocated", st.allocated);
    set(k + ".freed", st.freed);
  };
  const std::pair<const char*, const Stat*> arrays[] = {{"allocation", s.allocation},
                                                        {"segment", s.segment},
                                                        {"active", s.active},
                                                        {"inactive_split", s.inactive_split},
                                                        {"allocated_bytes", s.allocated_bytes},
                                                        {"reserved_bytes", s.reserved_bytes},
                                                        {"active_bytes", s.active_bytes},
                                                        {"inactive_split_bytes", s.inactive_split_bytes},
                                                        {"requested_bytes", s.requested_bytes}};
  const char* pools[] = {"all", "large_pool", "small_pool"};
  for (auto& [name, st] : arrays)
    for (int t = 0; t < kPoolStats; ++t) set_stat(std::string(name) + "." + pools[t], st[t]);
  set_stat("oversize_allocations", s.oversize_allocations);
  set_stat("oversize_segments", s.oversize_segments);
  set("num_alloc_retries", s.num_alloc_retries);
  set("num_ooms", s.num_ooms);
  set("num_sync_all_streams", s.num_sync_all_streams);
  set("num_device_alloc", s.num_device_alloc);
  set("num_device_free", s.num_device_free);
  set("max_split_size", s.max_split_size);
  return 1;
}

int l_memory_summary(lua_State* L) {
  Args a(L, 1, "memory_summary");
  const int d = device_at(L, a.at(0, "device"));
  const bool abbreviated = a.boolean(1, "abbreviated", false);
  a.finish(2);
  const std::string s = memory_summary(d, abbreviated);
  lua_pushlstring(L, s.data(), s.size());
  return 1;
}

int list_gpu_processes(lua_State* L) {
  const std::string s = gpu_processes(device_at(L, 1));
  lua_pushlstring(L, s.data(), s.size());
  return 1;
}

// smi() returns the table as an object that prints as itself, so that echoing
// it in the REPL shows the table rather than one escaped string.
int smi_tostring(lua_State* L) {
  lua_getfield(L, 1, "text");
  return 1;
}
int smi(lua_State* L) {
  std::string s = smi_table();
  if (!s.empty() && s.back() == '\n') s.pop_back();  // print() and the REPL's echo add it
  lua_createtable(L, 0, 1);
  lua_pushlstring(L, s.data(), s.size());
  lua_setfield(L, -2, "text");
  lua_createtable(L, 0, 1);
  push_function(L, smi_tostring, nullptr);
  lua_setfield(L, -2, "__tostring");
  lua_setmetatable(L, -2);
  return 1;
}

// The memory-pressure hook of one Lua state, removed when the state closes.
// Young: one basic step, a minor collection in generational mode (Note [Young
// garbage first]); in incremental mode, one increment.
void collect(void* ctx, Relief how) {
  lua_gc(static_cast<lua_State*>(ctx), how == Relief::Young ? LUA_GCSTEP : LUA_GCCOLLECT, 0);
}
int unhook(lua_State* L) {
  remove_memory_pressure_hook(lua_touserdata(L, lua_upvalueindex(1)));
  return 0;
}

}  // namespace

void open_cuda_memory(lua_State* L) {
  static const Reg fns[] = {
      {"mem_get_info", l_mem_get_info, "torch.cuda.mem_get_info(i) -> free, total (bytes)."},
      {"memory_allocated", memory_allocated,
       "torch.cuda.memory_allocated(i): bytes held by tensors (in 512-byte blocks)."},
      {"max_memory_allocated", max_memory_allocated,
       "torch.cuda.max_memory_allocated(i): the peak of memory_allocated."},
      {"memory_reserved", memory_reserved,
       "torch.cuda.memory_reserved(i): bytes held by the caching allocator (whole segments)."},
      {"max_memory_reserved", max_memory_reserved, "torch.cuda.max_memory_reserved(i): the peak of memory_reserved."},
      {"reset_peak_memory_stats", reset_peak,
       "torch.cuda.reset_peak_memory_stats(i): peaks start again from the current values."},
      {"reset_accumulated_memory_stats", reset_accumulated,
       "torch.cuda.reset_accumulated_memory_stats(i): zero the allocated/freed totals and counters."},
      {"empty_cache", l_empty_cache, "torch.cuda.empty_cache(): give wholly free cached segments back to the driver."},
      {"memory_stats", memory_stats,
       "torch.cuda.memory_stats(i): the caching allocator's statistics, keyed as in PyTorch."},
      {"memory_summary", l_memory_summary,
       "torch.cuda.memory_summary(device, abbreviated): PyTorch's memory table (print it)."},
      {"list_gpu_processes", list_gpu_processes,
       "torch.cuda.list_gpu_processes(i): the processes using the GPU and their memory."},
      {"smi", smi, "torch.cuda.smi(): an nvidia-smi-style table of the devices and this process's memory."},
      {nullptr, nullptr, nullptr}};
  set_functions(L, fns, "cuda.");
  // A userdata kept in the registry: its __gc runs when the state closes.
  add_memory_pressure_hook(collect, L);
  lua_newuserdatauv(L, 0, 0);
  lua_createtable(L, 0, 1);
  lua_pushlightuserdata(L, L);
  lua_pushcclosure(L, unhook, 1);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, "gpulab.memory_pressure_hook");
}

}  // namespace gl::lt

namespace gl::bindings {
std::string smi_text() { return smi_table(); }
}  // namespace gl::bindings
