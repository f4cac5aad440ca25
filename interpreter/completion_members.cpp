// Tab completion, part 2: what an object has (a tensor's fields and methods, a
// module's parameters, buffers, submodules and class methods, a table's keys).
#include "interpreter/completion_parts.h"

namespace gl::interp::completion {

void table_keys(lua_State* L, int idx, const std::string& partial, bool functions, Names* out) {
  if (lua_type(L, idx) != LUA_TTABLE) return;
  idx = lua_absindex(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_type(L, -2) == LUA_TSTRING) {
      const char* k = lua_tostring(L, -2);
      bool hidden = k[0] == '_' && partial.empty();
      if (!hidden && starts_with(k, partial) && is_identifier(k) && !starts_with(k, "__") &&
          (!functions || lua_isfunction(L, -1)))
        out->insert(k);
    }
    lua_pop(L, 1);
  }
}

// The entries of an OrderedDict's key list (`_k`) held in field `reg` of idx.
static void registry_keys(lua_State* L, int idx, const char* reg, const std::string& partial, Names* out) {
  const int top = lua_gettop(L);
  lua_getfield(L, idx, reg);
  if (lua_type(L, -1) == LUA_TTABLE && lua_getfield(L, -1, "_k") == LUA_TTABLE) {
    lua_Integer n = lua_Integer(lua_rawlen(L, -1));
    for (lua_Integer i = 1; i <= n; ++i) {
      if (lua_rawgeti(L, -1, i) == LUA_TSTRING) {
        const char* k = lua_tostring(L, -1);
        if (starts_with(k, partial) && is_identifier(k)) out->insert(k);
      }
      lua_pop(L, 1);
    }
  }
  lua_settop(L, top);
}

void tensor_members(lua_State* L, bool method, const std::string& partial, Names* out) {
  luaL_getmetatable(L, kTensorMT);
  int mt = lua_gettop(L);
  if (method) {
    lua_getfield(L, mt, "__methods");
    table_keys(L, -1, partial, true, out);
  } else if (lua_getfield(L, mt, "__fields") == LUA_TTABLE) {
    lua_Integer n = lua_Integer(lua_rawlen(L, -1));
    for (lua_Integer i = 1; i <= n; ++i) {
      if (lua_rawgeti(L, -1, i) == LUA_TSTRING && starts_with(lua_tostring(L, -1), partial))
        out->insert(lua_tostring(L, -1));
      lua_pop(L, 1);
    }
  }
  lua_settop(L, mt - 1);
}

// The methods of the class at idx and of its parents (U.class: a class's
// metatable's __index is its parent).
void class_methods(lua_State* L, int idx, const std::string& partial, Names* out) {
  const int top = lua_gettop(L);
  lua_pushvalue(L, idx);
  for (int depth = 0; depth < 16 && lua_type(L, -1) == LUA_TTABLE; ++depth) {
    table_keys(L, -1, partial, true, out);
    if (!lua_getmetatable(L, -1)) break;
    lua_getfield(L, -1, "__index");  // the parent class
    lua_replace(L, -3);
    lua_pop(L, 1);
  }
  lua_settop(L, top);
  // The class machinery (Module:extend('Name'), Class:new()) is no method of an instance.
  out->erase("extend");
  out->erase("new");
}

void value_members(lua_State* L, int idx, bool method, const std::string& partial, Names* out) {
  idx = lua_absindex(L, idx);
  const int top = lua_gettop(L);
  if (is_tensor(L, idx)) {
    tensor_members(L, method, partial, out);
    return;
  }
  if (is_module(L, idx)) {
    if (method) {
      table_keys(L, idx, partial, true, out);
    } else {
      for (const char* reg : {"_parameters", "_buffers", "_modules"}) {
        int before = lua_gettop(L);
        registry_keys(L, idx, reg, partial, out);
        lua_settop(L, before);
      }
      lua_pushnil(L);  // plain fields (in_features, training), not functions
      while (lua_next(L, idx)) {
        if (lua_type(L, -2) == LUA_TSTRING && !lua_isfunction(L, -1)) {
          const char* k = lua_tostring(L, -2);
          bool hidden = k[0] == '_' && partial.empty();
          if (!hidden && starts_with(k, partial) && is_identifier(k)) out->insert(k);
        }
        lua_pop(L, 1);
      }
    }
    if (method) {  // methods along the class chain
      lua_getmetatable(L, idx);
      lua_getfield(L, -1, "__class");
      class_methods(L, -1, partial, out);
    }
    lua_settop(L, top);
    return;
  }
  table_keys(L, idx, partial, method, out);
  lua_pushvalue(L, idx);
  for (int depth = 0; depth < 16 && lua_getmetatable(L, -1); ++depth) {
    int mt = lua_gettop(L);
    lua_getfield(L, mt, "__methods");
    table_keys(L, -1, partial, true, out);
    lua_pop(L, 1);
    if (lua_getfield(L, mt, "__index") != LUA_TTABLE) break;
    table_keys(L, -1, partial, method, out);
    lua_replace(L, mt - 1);  // the stack stays two deep: the __index table, then its metatable
    lua_settop(L, mt - 1);
  }
  lua_settop(L, top);
}

}  // namespace gl::interp::completion
