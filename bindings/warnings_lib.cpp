// The warning handler of a Lua state (Note [Warnings] in tensor/core/warning.h):
// "UserWarning: text" on stderr once per (text, Lua call site), Python's
// default filter, with the Lua line that made the call standing in for
// Python's file:line. Reset when the state closes.
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/core/warning.h"

namespace gl::lt {

namespace {

struct Seen {
  std::set<std::pair<std::string, std::string>> sites;
};

void lua_warn(const std::string& text, void* ctx) {
  auto* L = static_cast<lua_State*>(ctx);
  luaL_where(L, 1);  // inside a bound call: level 1 is the Lua line that called it
  std::string site = lua_tostring(L, -1);
  lua_pop(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, "gpulab.warnings");
  auto* seen = static_cast<Seen*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  if (seen && !seen->sites.emplace(text, site).second) return;
  std::fprintf(stderr, "UserWarning: %s\n", text.c_str());
  std::fflush(stderr);
}

int close_warnings(lua_State* L) {
  auto* seen = static_cast<Seen*>(lua_touserdata(L, 1));
  seen->~Seen();
  set_warn_handler(nullptr, nullptr);
  return 0;
}

}  // namespace

void open_warnings(lua_State* L) {
  void* p = lua_newuserdatauv(L, sizeof(Seen), 0);
  new (p) Seen();
  lua_newtable(L);
  lua_pushcfunction(L, close_warnings);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, "gpulab.warnings");
  set_warn_handler(lua_warn, L);
}

}  // namespace gl::lt
