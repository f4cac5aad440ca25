// The warning handler of a Lua state (Note [Warnings] in tensor/core/warning.h):
// "UserWarning: text" on stderr once per (text, Lua call site), Python's
// default filter, with the Lua line that made the call standing in for
// Python's file:line. Reset when the state closes. torch._warn gives the Lua
// library the same path.
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

// "UserWarning: text" (or another category's) unless this (text, site) pair has been shown.
void warn_at(lua_State* L, const std::string& text, int level, const char* category = "UserWarning") {
  luaL_where(L, level);
  std::string site = lua_tostring(L, -1);
  lua_pop(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, "gpulab.warnings");
  auto* seen = static_cast<Seen*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  if (seen && !seen->sites.emplace(text, site).second) return;
  std::fprintf(stderr, "%s: %s\n", category, text.c_str());
  std::fflush(stderr);
}

void lua_warn(const std::string& text, void* ctx) {
  // inside a bound call: level 1 is the Lua line that called it
  warn_at(static_cast<lua_State*>(ctx), text, 1);
}

// torch._warn(text, level=1, category='UserWarning'): the Lua library's
// warnings; level counts as Python's stacklevel does (1: the library
// function's caller, 2: its caller).
int l_warn(lua_State* L) {
  const char* text = luaL_checkstring(L, 1);
  const int level = int(luaL_optinteger(L, 2, 1));
  warn_at(L, text, level + 1, luaL_optstring(L, 3, "UserWarning"));
  return 0;
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
  lua_pushcfunction(L, l_warn);  // into the torch table on the stack
  lua_setfield(L, -2, "_warn");
}

}  // namespace gl::lt
