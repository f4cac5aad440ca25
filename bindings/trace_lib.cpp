// torch._trace: the trace of tensor/runtime/trace.h for exercise checkers.
//   torch._trace.start()         clear and start counting
//   torch._trace.stop() -> t     stop, and return what was counted
//   torch._trace.peek() -> t     what was counted so far (still counting)
// t.copies = { {from='cpu', to='cuda:0', calls=1, bytes=24}, ... }
// t.syncs  = { {what='item', device='cuda:0', count=3}, ... }
// t.ops    = { {name='mm', device='cuda:0', count=2}, ... }
// plus totals: t.h2d, t.d2h, t.d2d = {calls=, bytes=}, t.nsyncs, and
// t.collections = {young=, full=}: the garbage collections device memory asked for.
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/runtime/trace.h"

namespace gl::lt {
namespace {

void set_int(lua_State* L, const char* key, int64_t v) {
  lua_pushinteger(L, lua_Integer(v));
  lua_setfield(L, -2, key);
}
void set_str(lua_State* L, const char* key, const std::string& v) {
  lua_pushstring(L, v.c_str());
  lua_setfield(L, -2, key);
}

// Sets field `list` of the table on top to { {<first>=, device=, count=}, ... }
// from a (first, device) -> count map; returns the total count.
int64_t push_counts(lua_State* L, const std::map<std::pair<std::string, std::string>, int64_t>& counts,
                    const char* first, const char* list) {
  lua_newtable(L);
  int i = 0;
  int64_t total = 0;
  for (const auto& [key, n] : counts) {
    total += n;
    lua_newtable(L);
    set_str(L, first, key.first);
    set_str(L, "device", key.second);
    set_int(L, "count", n);
    lua_rawseti(L, -2, ++i);
  }
  lua_setfield(L, -2, list);
  return total;
}

void push_record(lua_State* L, const trace::Record& r) {
  lua_newtable(L);
  trace::Count h2d, d2h, d2d;
  lua_newtable(L);
  int i = 0;
  for (const auto& [key, c] : r.copies) {
    const bool from_host = key.first == "cpu", to_host = key.second == "cpu";
    trace::Count& total = from_host ? h2d : to_host ? d2h : d2d;
    total.calls += c.calls;
    total.bytes += c.bytes;
    lua_newtable(L);
    set_str(L, "from", key.first);
    set_str(L, "to", key.second);
    set_int(L, "calls", c.calls);
    set_int(L, "bytes", c.bytes);
    lua_rawseti(L, -2, ++i);
  }
  lua_setfield(L, -2, "copies");
  for (auto [name, c] : {std::pair{"h2d", h2d}, std::pair{"d2h", d2h}, std::pair{"d2d", d2d}}) {
    lua_newtable(L);
    set_int(L, "calls", c.calls);
    set_int(L, "bytes", c.bytes);
    lua_setfield(L, -2, name);
  }
  set_int(L, "nsyncs", push_counts(L, r.syncs, "what", "syncs"));
  push_counts(L, r.ops, "name", "ops");
  lua_newtable(L);
  set_int(L, "young", r.young_collections);
  set_int(L, "full", r.full_collections);
  lua_setfield(L, -2, "collections");
}

int start(lua_State*) {
  trace::start();
  return 0;
}
int stop(lua_State* L) {
  push_record(L, trace::stop());
  return 1;
}
int peek(lua_State* L) {
  push_record(L, trace::peek());
  return 1;
}

}  // namespace

void open_trace(lua_State* L) {
  static const Reg fns[] = {
      {"start", start,
       "torch._trace.start(): clear the trace and count copies, waits and ops (gpulab only; checkers use it)."},
      {"stop", stop,
       "torch._trace.stop(): stop counting; returns {copies=, syncs=, ops=, h2d=, d2h=, d2d=, nsyncs=, collections=}."},
      {"peek", peek, "torch._trace.peek(): what was counted so far, without stopping."},
      {nullptr, nullptr, nullptr}};
  lua_newtable(L);
  set_functions(L, fns);
}

}  // namespace gl::lt
