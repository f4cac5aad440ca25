// torch.save / torch.load: the C half. The Lua half (bindings/lua/50_checkpoint.lua)
// walks the object, tables, OrderedDicts and state dicts alike, with `pairs`
// (which may run Lua metamethods, so it cannot happen here: Note [Trampoline]),
// and hands over flat lists; these functions only convert them.
//
// These take tables positionally, so they read their arguments by hand rather
// than through lt::Args, which would take the trailing table for keywords.
#include <algorithm>
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/core/error.h"
#include "tensor/io/checkpoint.h"

namespace gl::lt {

namespace {

std::string string_arg(lua_State* L, int idx, const char* fname, const char* arg) {
  if (lua_type(L, idx) != LUA_TSTRING) type_error(fname, arg, "str", type_name(L, idx));
  size_t n = 0;
  const char* s = lua_tolstring(L, idx, &n);
  return std::string(s, n);
}

std::string raw_string(lua_State* L, int idx) {
  size_t n = 0;
  const char* s = lua_tolstring(L, idx, &n);  // only called on LUA_TSTRING values
  return std::string(s, n);
}

// A plain table of string -> string (raw access: lua_next never runs metamethods).
std::vector<std::pair<std::string, std::string>> string_map(lua_State* L, int idx, const char* fname, const char* arg) {
  std::vector<std::pair<std::string, std::string>> out;
  if (lua_isnoneornil(L, idx)) return out;
  if (lua_type(L, idx) != LUA_TTABLE) type_error(fname, arg, "dict", type_name(L, idx));
  GL_CHECK(lua_checkstack(L, 4), "stack overflow");
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    const bool ok = lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TSTRING;
    if (!ok) {
      lua_pop(L, 2);
      throw TypeError(cat(fname, "(): ", arg, " must map strings to strings"));
    }
    out.emplace_back(raw_string(L, -2), raw_string(L, -1));
    lua_pop(L, 1);
  }
  std::sort(out.begin(), out.end());  // the same object always writes the same bytes
  return out;
}

// torch._save_tensors(path, names, tensors, metadata)
int save_tensors(lua_State* L) {
  const char* fname = "torch._save_tensors";
  const std::string path = string_arg(L, 1, fname, "path");
  GL_CHECK_T(TypeError, lua_type(L, 2) == LUA_TTABLE && lua_type(L, 3) == LUA_TTABLE, fname,
             "(): names and tensors must be lists");
  const lua_Integer n = lua_Integer(lua_rawlen(L, 2));
  GL_CHECK_T(TypeError, lua_Integer(lua_rawlen(L, 3)) == n, fname, "(): names and tensors differ in length");
  io::NamedTensors tensors;
  tensors.reserve(size_t(n));
  GL_CHECK(lua_checkstack(L, 4), "stack overflow");
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, 2, i);
    lua_rawgeti(L, 3, i);
    Tensor* t = to_tensor(L, -1);
    const bool ok = lua_type(L, -2) == LUA_TSTRING && t != nullptr;
    if (ok) tensors.emplace_back(raw_string(L, -2), *t);
    lua_pop(L, 2);
    GL_CHECK_T(TypeError, ok, fname, "(): entry ", i, " is not a (string, Tensor) pair");
  }
  // Note [Interrupted save]: Ctrl-C arms a Lua hook (the interpreter's) that
  // raises KeyboardInterrupt as this returns (a return hook). One armed before
  // the rename abandons the save (the old file stays, the temporary goes) and
  // is reported from it. One armed after the rename must not say the save
  // failed: it becomes a count hook only, which first strikes at the next Lua
  // instruction, in torch.save's caller (torch.save tail-calls this), so the
  // interrupt lands after a save that happened.
  const lua_Hook hook = lua_gethook(L);
  const int mask = lua_gethookmask(L);
  auto armed = [&] { return lua_gethook(L) != hook || lua_gethookmask(L) != mask; };
  if (io::save_checkpoint(path, tensors, string_map(L, 4, fname, "metadata"), armed) && armed())
    lua_sethook(L, lua_gethook(L), LUA_MASKCOUNT, 1);
  return 0;
}

// torch._load_tensors(path, map_location) -> names, tensors, metadata
// map_location: nil, a location string, or a table of location -> location.
int load_tensors(lua_State* L) {
  const char* fname = "torch._load_tensors";
  const std::string path = string_arg(L, 1, fname, "path");
  io::MapLocation map;
  if (lua_type(L, 2) == LUA_TSTRING) map.all = raw_string(L, 2);
  else map.remap = string_map(L, 2, fname, "map_location");
  io::Checkpoint c = io::load_checkpoint(path, map);
  GL_CHECK(lua_checkstack(L, 8), "stack overflow");
  const int n = int(c.tensors.size());
  lua_createtable(L, n, 0);
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; ++i) {
    const auto& [name, t] = c.tensors[size_t(i)];
    lua_pushlstring(L, name.data(), name.size());
    lua_rawseti(L, -3, i + 1);
    push_tensor(L, t);
    lua_rawseti(L, -2, i + 1);
  }
  lua_createtable(L, 0, int(c.metadata.size()));
  for (const auto& [k, v] : c.metadata) {
    lua_pushlstring(L, k.data(), k.size());
    lua_pushlstring(L, v.data(), v.size());
    lua_rawset(L, -3);
  }
  return 3;
}

const Reg kIoFunctions[] = {
    {"_save_tensors", save_tensors,
     "internal: torch._save_tensors(path, names, tensors, metadata) writes a safetensors file atomically, recording "
     "each tensor's device (torch.save calls it)"},
    {"_load_tensors", load_tensors,
     "internal: torch._load_tensors(path, map_location) -> names, tensors, metadata (torch.load calls it)"},
    {nullptr, nullptr, nullptr}};

}  // namespace

void open_io(lua_State* L) { set_functions(L, kIoFunctions); }

}  // namespace gl::lt
