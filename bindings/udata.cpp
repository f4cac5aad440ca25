// Note [One finalizer] (bindings/udata.h).
#include "bindings/udata.h"
#include <array>

namespace gl::lt {

namespace {
constexpr uint32_t kFirstTag = uint32_t(UdTag::Dead);
constexpr size_t kTags = size_t(UdTag::Last) - kFirstTag + 1;
// Written while the library opens, the same functions for every state.
std::array<lua_CFunction, kTags> g_finalizers{};
}  // namespace

void ud_set_finalizer(UdTag tag, lua_CFunction fn) { g_finalizers[size_t(tag) - kFirstTag] = fn; }

int ud_gc(lua_State* L) {
  if (lua_type(L, 1) != LUA_TUSERDATA || lua_rawlen(L, 1) < sizeof(UdTag)) return 0;
  const uint32_t tag = uint32_t(*static_cast<const UdTag*>(lua_touserdata(L, 1)));
  if (tag < kFirstTag || tag - kFirstTag >= kTags) return 0;  // not one of ours
  lua_CFunction fn = g_finalizers[tag - kFirstTag];
  return fn ? fn(L) : 0;
}

void ud_set_gc(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  lua_pushcfunction(L, ud_gc);
  lua_setfield(L, idx, "__gc");
}

}  // namespace gl::lt
