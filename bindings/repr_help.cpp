// Tab-completion candidates (repr() lives in repr.cpp, help() in lua/00_help.lua).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include "bindings/bindings.h"
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "bindings/udata.h"
#include "tensor/core/error.h"
#include "tensor/core/format.h"

namespace gl::bindings {

std::vector<std::string> completions(lua_State* L, const std::string& prefix) {
  std::vector<std::string> out;
  size_t sep = prefix.find_last_of(".:");
  std::string base = sep == std::string::npos ? "" : prefix.substr(0, sep);
  std::string partial = sep == std::string::npos ? prefix : prefix.substr(sep + 1);
  const bool method = sep != std::string::npos && prefix[sep] == ':';
  const int top = lua_gettop(L);
  lua_pushglobaltable(L);
  size_t pos = 0;
  while (!base.empty() && pos <= base.size()) {
    size_t dot = base.find('.', pos);
    std::string part = base.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    if (lua_type(L, -1) != LUA_TTABLE) {
      lua_settop(L, top);
      return out;
    }
    lua_getfield(L, -1, part.c_str());  // tables only: no metamethod surprises worth guarding here
    lua_remove(L, -2);
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  std::set<std::string> keys;
  auto collect = [&](int idx) {
    if (lua_type(L, idx) != LUA_TTABLE) return;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
      if (lua_type(L, -2) == LUA_TSTRING) {
        std::string k = lua_tostring(L, -2);
        if (k.rfind(partial, 0) == 0 && k.rfind("__", 0) != 0) keys.insert(k);
      }
      lua_pop(L, 1);
    }
  };
  int v = lua_gettop(L);
  if (lua_type(L, v) == LUA_TTABLE) collect(v);
  // Methods and class fields through the metatable (tensors, nn modules).
  if (lua_getmetatable(L, v)) {
    int mt = lua_gettop(L);
    lua_getfield(L, mt, "__methods");
    collect(lua_gettop(L));
    lua_pop(L, 1);
    for (int depth = 0; depth < 8; ++depth) {
      lua_getfield(L, mt, "__index");
      if (lua_type(L, -1) != LUA_TTABLE) {
        lua_pop(L, 1);
        break;
      }
      collect(lua_gettop(L));
      if (!lua_getmetatable(L, -1)) {
        lua_pop(L, 1);
        break;
      }
      lua_remove(L, -2);
      mt = lua_gettop(L);
    }
  }
  for (auto& k : keys) out.push_back(base.empty() ? k : base + (method ? ":" : ".") + k);
  lua_settop(L, top);
  (void)method;
  return out;
}

}  // namespace gl::bindings
