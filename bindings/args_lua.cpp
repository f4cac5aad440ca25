// The Lua half of the library parses its calls with the C++ Args
// (luaT.h), so positionals, keywords and the one-table form f{a, k=v} are
// read one way, with one wording of the TypeErrors:
//   torch._parse_args(fname, names, defaults, ...) -> {name = value}
// names: specs 'name', 'name:Type' or 'name:Type!' in order, '*' before the
// keyword-only ones; the Lua side (U.parse, bindings/lua/05_base.lua) checks
// 'Type' and '!' (required) on the result, in the specs' order.
//   torch._too_many(fname, max, given) raises "f() takes ... positional
// arguments but ... given" (throw_too_many).
#include <algorithm>
#include <string>
#include <vector>
#include "bindings/args.h"
#include "bindings/registry.h"
#include "tensor/core/error.h"

namespace gl::lt {

namespace {

bool is_empty_plain(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return false;
  if (lua_getmetatable(L, idx)) {
    lua_pop(L, 1);
    return false;
  }
  lua_pushnil(L);
  if (!lua_next(L, idx)) return true;
  lua_pop(L, 2);
  return false;
}

int parse_args(lua_State* L) {
  // Checked before any C++ object lives: a Lua error unwinds past this frame.
  luaL_checkstring(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  const std::string fname = lua_tostring(L, 1);
  constexpr int kFirst = 4;
  int top = lua_gettop(L);
  while (top >= kFirst && lua_isnil(L, top)) --top;  // f(a, nil) is f(a)
  // A lone {} is an empty options table here (Args keeps it as a 0-d size).
  if (top == kFirst && is_empty_plain(L, kFirst)) --top;
  lua_settop(L, std::max(top, 3));
  struct Spec {
    std::string name;
    int pos;  // positional index, -1: keyword-only
  };
  std::vector<Spec> specs;
  int npos = 0;
  bool kw_only = false;
  const int nspecs = int(lua_rawlen(L, 2));
  for (int i = 1; i <= nspecs; ++i) {
    lua_rawgeti(L, 2, i);
    const char* c = lua_tostring(L, -1);
    GL_CHECK_T(TypeError, c, "_parse_args(): names must be strings");
    std::string s = c;
    lua_pop(L, 1);
    if (s == "*") {
      kw_only = true;
      continue;
    }
    specs.push_back({s.substr(0, s.find_first_of(":!")), kw_only ? -1 : npos});
    if (!kw_only) ++npos;
  }
  Args a(L, kFirst, fname.c_str());
  for (const Spec& s : specs) a.at(-1, s.name.c_str());  // every name is a known keyword
  a.finish(npos);
  lua_createtable(L, 0, int(specs.size()));
  const int r = lua_gettop(L);
  for (const Spec& s : specs) {
    if (int idx = a.at(s.pos, s.name.c_str())) {
      lua_pushvalue(L, idx);
    } else if (lua_type(L, 3) == LUA_TTABLE) {
      lua_pushstring(L, s.name.c_str());
      lua_rawget(L, 3);
    } else {
      continue;
    }
    lua_setfield(L, r, s.name.c_str());
  }
  lua_pushvalue(L, r);
  return 1;
}

int too_many(lua_State* L) {
  const char* fname = luaL_checkstring(L, 1);
  const int max = int(luaL_checkinteger(L, 2)), given = int(luaL_checkinteger(L, 3));
  throw_too_many(fname, max, given);
}

}  // namespace

Tensor* opt_tensor(Args& a, int i, const char* name) {
  const int idx = a.at(i, name);
  return idx ? to_tensor(a.L, idx) : nullptr;
}

bool is_list(Args& a, int i, const char* name) {
  const int idx = a.at(i, name);
  return idx && lua_type(a.L, idx) == LUA_TTABLE;
}

void open_args(lua_State* L) {
  push_function(L, parse_args,
                "internal: torch._parse_args(fname, names, defaults, ...) reads a call as the C++ bindings do");
  lua_setfield(L, -2, "_parse_args");
  push_function(L, too_many, "internal: torch._too_many(fname, max, given) raises the too-many-positionals TypeError");
  lua_setfield(L, -2, "_too_many");
}

}  // namespace gl::lt
