// Names of Lua values for the echo: the dotted global name of a table or a
// function (`<function nn.init.zeros_>`), and the one-line summary a
// namespace echoes as (`<module 'torch.cuda': 20 functions; help(torch.cuda)
// lists them>`) instead of its contents.
#include <cctype>
#include <string>
#include <vector>
#include "bindings/luaT.h"
#include "bindings/registry.h"

namespace gl::lt {

namespace {

bool is_identifier(const char* s) {
  if (!s || !(std::isalpha(static_cast<unsigned char>(*s)) || *s == '_')) return false;
  for (; *s; ++s)
    if (!(std::isalnum(static_cast<unsigned char>(*s)) || *s == '_')) return false;
  return true;
}

// The output history's globals (06_repl_history.lua): _, __, ___, _N, Out. A
// value they hold goes by its own name.
bool is_history_name(const std::string& k) {
  if (k == "Out" || k == "_" || k == "__" || k == "___") return true;
  return k.size() > 1 && k[0] == '_' && k.find_first_not_of("0123456789", 1) == std::string::npos;
}

}  // namespace

// The dotted global name of the value at idx (a table or a function), found by
// a raw walk of the globals three levels deep; empty when it has none.
std::string global_name(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  struct Node {
    std::string name;
    int depth;
  };
  std::vector<Node> queue{{"", 0}};
  lua_newtable(L);  // tables already visited
  const int seen = lua_gettop(L);
  lua_newtable(L);  // name -> table, for the walk
  const int tables = lua_gettop(L);
  lua_pushglobaltable(L);
  lua_setfield(L, tables, "");
  std::string found;
  for (size_t q = 0; q < queue.size() && found.empty(); ++q) {
    const Node node = queue[q];
    lua_getfield(L, tables, node.name.c_str());
    const int t = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, t)) {
      if (lua_type(L, -2) == LUA_TSTRING && is_identifier(lua_tostring(L, -2)) &&
          !(node.name.empty() && is_history_name(lua_tostring(L, -2)))) {
        const std::string key = lua_tostring(L, -2);
        const std::string name = node.name.empty() ? key : node.name + "." + key;
        if (lua_rawequal(L, -1, idx) && found.empty()) found = name;
        if (lua_type(L, -1) == LUA_TTABLE && node.depth < 3 && key != "_G" && key != "package" && key != "loaded") {
          lua_pushvalue(L, -1);
          if (lua_rawget(L, seen) == LUA_TNIL) {
            lua_pushvalue(L, -2);
            lua_pushboolean(L, 1);
            lua_rawset(L, seen);
            lua_pushvalue(L, -2);
            lua_setfield(L, tables, name.c_str());
            queue.push_back({name, node.depth + 1});
          }
          lua_pop(L, 1);
        }
      }
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
  return found;
}

// A namespace: a named table of functions and sub-tables (torch, nn, math).
bool namespace_summary(lua_State* L, int idx, std::string& out) {
  if (lua_rawlen(L, idx) > 0) return false;
  if (lua_getmetatable(L, idx)) {  // classes and objects print otherwise; torch's parts say __namespace
    lua_pushliteral(L, "__namespace");
    const bool marked = lua_rawget(L, -2) != LUA_TNIL;
    lua_pop(L, 2);
    if (!marked) return false;
  }
  int functions = 0, tables = 0, other = 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    const int t = lua_type(L, -1);
    (t == LUA_TFUNCTION ? functions : t == LUA_TTABLE ? tables : other) += 1;
    lua_pop(L, 1);
  }
  const int total = functions + tables + other;
  if (functions == 0 || total < 4 || (functions + tables) * 4 < total * 3) return false;
  std::string name = global_name(L, idx);
  if (name == "torch.Tensor") {  // the class of tensors, as Python shows it
    out += "<class 'torch.Tensor'>";
    return true;
  }
  if (name.empty()) {
    if (functions < 8) return false;
    name = "a table";
  } else {
    name = "module '" + name + "'";
  }
  auto count = [](int n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
  out += "<" + name + ": " + count(functions, "function");
  if (tables) out += ", " + count(tables, "table");
  if (other) out += ", " + count(other, "other value");
  out += name == "a table" ? ">" : "; help(" + name.substr(8, name.size() - 9) + ") lists them>";
  return true;
}

}  // namespace gl::lt
