// LuaCallback and HookScope (lua_callback.h).
#include "bindings/lua_callback.h"
#include <unordered_set>
#include "bindings/luaT.h"

namespace gl::lt {

namespace {

constexpr const char* kCallbacks = "gpulab.callbacks";  // registry: id -> the Lua function

// The states whose registry a callback may still touch.
std::unordered_set<lua_State*>& open_states() {
  static std::unordered_set<lua_State*> s;
  return s;
}
int close_state(lua_State* L) {
  open_states().erase(static_cast<lua_State*>(lua_touserdata(L, lua_upvalueindex(1))));
  return 0;
}

thread_local lua_State* g_running = nullptr;

void push_table(lua_State* L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, kCallbacks) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, kCallbacks);
}

}  // namespace

std::shared_ptr<LuaCallback> LuaCallback::keep(lua_State* L, int idx) {
  static int next_id = 0;
  idx = lua_absindex(L, idx);
  auto cb = std::make_shared<LuaCallback>();
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
  cb->main = lua_tothread(L, -1);
  lua_pop(L, 1);
  cb->id = ++next_id;
  push_table(L);
  lua_pushvalue(L, idx);
  lua_rawseti(L, -2, cb->id);
  lua_pop(L, 1);
  return cb;
}

LuaCallback::~LuaCallback() {
  if (!open_states().count(main)) return;
  push_table(main);
  lua_pushnil(main);
  lua_rawseti(main, -2, id);
  lua_pop(main, 1);
}

lua_State* LuaCallback::push() const {
  lua_State* L = g_running;
  if (!L) return nullptr;
  if (!lua_checkstack(L, 8)) throw RuntimeError("stack overflow calling back into Lua from backward");
  push_table(L);
  lua_rawgeti(L, -1, id);
  lua_remove(L, -2);
  return L;
}

HookScope::HookScope(lua_State* L) : prev(g_running) { g_running = L; }
HookScope::~HookScope() { g_running = prev; }

void open_lua_callbacks(lua_State* L) {
  open_states().insert(L);
  // a sentinel collected when the state closes (after the tensors made before it)
  lua_newuserdatauv(L, 1, 0);
  lua_newtable(L);
  lua_pushlightuserdata(L, L);
  lua_pushcclosure(L, close_state, 1);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, "gpulab.callbacks_sentinel");
}

}  // namespace gl::lt
