// repr() for the REPL's echo, help() for every bound function and module,
// and tab-completion candidates.
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

namespace gl::lt {

namespace {

std::string py_str_repr(const std::string& s) {
  char q = (s.find('\'') != std::string::npos && s.find('"') == std::string::npos) ? '"' : '\'';
  std::string r(1, q);
  for (unsigned char c : s) {
    if (c == '\\') r += "\\\\";
    else if (c == '\n') r += "\\n";
    else if (c == '\t') r += "\\t";
    else if (c == '\r') r += "\\r";
    else if (c == (unsigned char)q) { r += '\\'; r += char(c); }
    else if (c < 32) { char b[8]; std::snprintf(b, sizeof b, "\\x%02x", c); r += b; }
    else r += char(c);
  }
  return r + q;
}

void repr_into(lua_State* L, int idx, std::string& out, int depth);

void table_repr(lua_State* L, int idx, std::string& out, int depth) {
  if (depth > 3) { out += "{...}"; return; }
  const lua_Integer n = lua_Integer(lua_rawlen(L, idx));
  out += "{";
  bool first = true;
  for (lua_Integer i = 1; i <= n; ++i) {
    if (!first) out += ", ";
    first = false;
    lua_rawgeti(L, idx, i);
    repr_into(L, lua_gettop(L), out, depth + 1);
    lua_pop(L, 1);
  }
  lua_pushnil(L);
  int count = 0;
  while (lua_next(L, idx)) {
    bool array_key = lua_isinteger(L, -2) && lua_tointeger(L, -2) >= 1 && lua_tointeger(L, -2) <= n;
    if (!array_key) {
      if (++count > 50) { lua_pop(L, 2); out += ", ..."; break; }
      if (!first) out += ", ";
      first = false;
      if (lua_type(L, -2) == LUA_TSTRING) out += lua_tostring(L, -2);
      else { out += "["; repr_into(L, lua_gettop(L) - 1, out, depth + 1); out += "]"; }
      out += " = ";
      repr_into(L, lua_gettop(L), out, depth + 1);
    }
    lua_pop(L, 1);
  }
  out += "}";
}

void repr_into(lua_State* L, int idx, std::string& out, int depth) {
  idx = lua_absindex(L, idx);
  if (Tensor* t = to_tensor(L, idx)) { out += tensor_repr(*t); return; }
  if (auto* d = ud_test<Device>(L, idx, UdTag::Device)) { out += d->repr(); return; }
  switch (lua_type(L, idx)) {
    case LUA_TSTRING: out += py_str_repr(lua_tostring(L, idx)); return;
    case LUA_TTABLE:
      if (luaL_getmetafield(L, idx, "__tostring") == LUA_TNIL) { table_repr(L, idx, out, depth); return; }
      lua_pop(L, 1);
      [[fallthrough]];
    default: {
      size_t len;
      const char* s = luaL_tolstring(L, idx, &len);  // may call __tostring
      out.append(s, len);
      lua_pop(L, 1);
    }
  }
}

}  // namespace

// repr(v): what the REPL echoes. Runs Lua code (__tostring), so it is a plain
// lua_CFunction: the only C++ object alive is `out`, destroyed before returning.
int repr(lua_State* L) {
  luaL_checkany(L, 1);
  {
    std::string out;
    try {
      repr_into(L, 1, out, 0);
    } catch (const std::exception& e) {
      out = std::string("<repr failed: ") + e.what() + ">";
    }
    lua_pushlstring(L, out.data(), out.size());
  }
  return 1;
}

}  // namespace gl::lt

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
    if (lua_type(L, -1) != LUA_TTABLE) { lua_settop(L, top); return out; }
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
      if (lua_type(L, -1) != LUA_TTABLE) { lua_pop(L, 1); break; }
      collect(lua_gettop(L));
      if (!lua_getmetatable(L, -1)) { lua_pop(L, 1); break; }
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
