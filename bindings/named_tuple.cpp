// Named tuples: max(x, 1) returns values and indices as two Lua results; the
// first tensor remembers its partner here, in a weak-keyed registry table, so
// that x:max(1).indices works and the echo (repr.cpp) labels the pair.
#include <cstring>
#include <string>
#include "bindings/call_site.h"
#include "bindings/luaT.h"
#include "bindings/registry.h"

namespace gl::lt {

namespace {

constexpr const char* kNamedTuples = "gpulab.named_tuples";

void push_named_tuples(lua_State* L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, kNamedTuples) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_newtable(L);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, kNamedTuples);
}

}  // namespace

// The record {name, field1, field2, first, second} of the tensor at idx, pushed; false if none.
bool push_named_tuple_record(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  push_named_tuples(L);
  lua_pushvalue(L, idx);
  if (lua_rawget(L, -2) == LUA_TTABLE) {
    lua_remove(L, -2);
    return true;
  }
  lua_pop(L, 2);
  return false;
}

// Note [Indexing a pair of results]: PyTorch's x.max(1)[1] is the indices;
// here the pair is two Lua results and [1] would index the values tensor,
// silently wrong, so that spelling is an error that says what to write.
void refuse_indexed_pair(lua_State* L, const char* name, const char* first, const char* second, bool named) {
  if (!bindings::result_indexed(L, 1)) return;
  throw TypeError(cat(name, "(...)[i]: ", name, " returns ", first, " and ", second, " as two Lua results (PyTorch's ",
                      named ? "named tuple" : "tuple", "), so [i] would index ", first, ". Write ",
                      named ? cat(name, "(...).", second, " for PyTorch's ", name, "(...)[1], or ") : std::string(),
                      "local ", first, ", ", second, " = ", name, "(...)"));
}

void mark_named_tuple(lua_State* L, const char* name, const char* field1, const char* field2) {
  refuse_indexed_pair(L, name, field1, field2, true);
  const int second = lua_gettop(L), first = second - 1;
  push_named_tuples(L);
  lua_pushvalue(L, first);
  lua_createtable(L, 5, 0);
  lua_pushstring(L, name);
  lua_rawseti(L, -2, 1);
  lua_pushstring(L, field1);
  lua_rawseti(L, -2, 2);
  lua_pushstring(L, field2);
  lua_rawseti(L, -2, 3);
  lua_pushvalue(L, first);
  lua_rawseti(L, -2, 4);
  lua_pushvalue(L, second);
  lua_rawseti(L, -2, 5);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

bool push_named_tuple_field(lua_State* L, int idx, const char* key) {
  if (!push_named_tuple_record(L, idx)) return false;
  for (int f = 2; f <= 3; ++f) {
    lua_rawgeti(L, -1, f);
    const bool match = std::strcmp(lua_tostring(L, -1), key) == 0;
    lua_pop(L, 1);
    if (match) {
      lua_rawgeti(L, -1, f + 2);
      lua_remove(L, -2);
      return true;
    }
  }
  lua_pop(L, 1);
  return false;
}

}  // namespace gl::lt
