// for_loop_arity / tforcall_arity (bindings/for_arity.h): the number of names
// of a generic for, read from Lua 5.4 bytecode (Note [for X, y in loader]).
#include <doctest/doctest.h>
#include <lua.hpp>
#include <string>
#include <vector>
#include "bindings/for_arity.h"

using gl::bindings::for_loop_arity;

namespace {

// Runs `src` with a global iterator `it` that records, on its first call of
// each loop, what for_loop_arity sees one level up, into `seen`.
std::vector<int> arities(const std::string& src) {
  static std::vector<int>* out = nullptr;
  std::vector<int> seen;
  out = &seen;
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  lua_pushcfunction(L, [](lua_State* S) -> int {
    if (lua_isnil(S, 2)) {
      out->push_back(for_loop_arity(S, 1));
      lua_pushinteger(S, 1);
      return 1;
    }
    return 0;  // one round per loop
  });
  lua_setglobal(L, "it");
  const int rc = luaL_dostring(L, src.c_str());
  if (rc != LUA_OK) FAIL(lua_tostring(L, -1));
  lua_close(L);
  return seen;
}

}  // namespace

TEST_CASE("the names of a generic for, as its iterator sees them") {
  CHECK(arities("for a in it do end") == std::vector<int>{1});
  CHECK(arities("for a, b in it do end") == std::vector<int>{2});
  CHECK(arities("for a, b, c, d, e, f in it do end") == std::vector<int>{6});
  // nested loops, a loop in a function, and a loop far down a long chunk
  // (the line table's absolute entries)
  CHECK(arities("for a in it do\n  for b, c in it do end\nend") == std::vector<int>{1, 2});
  CHECK(arities("local function f()\n  local x = 1\n  for p, q, r in it do end\nend\nf() f()") ==
        std::vector<int>{3, 3});
  std::string long_chunk;
  for (int i = 0; i < 3000; ++i) long_chunk += "v = " + std::to_string(i) + "\n";
  long_chunk += "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n";
  long_chunk += std::string(200, '\n') + "for a, b in it do end\nfor a in it do end";
  CHECK(arities(long_chunk) == std::vector<int>{2, 1});
  // the `for` line, not the line of the loop's expression
  CHECK(arities("for a, b\n  in\n  it\n do end") == std::vector<int>{2});
}

TEST_CASE("what cannot be known is 0") {
  // two loops on one line with different counts
  CHECK(arities("for a in it do end for b, c in it do end") == std::vector<int>{0, 0});
  // called from C, not from a for loop
  CHECK(arities("local ok = pcall(it, nil, nil)") == std::vector<int>{0});
  // a stripped chunk has no line table
  CHECK(arities("load(string.dump(load('for a, b in it do end'), true))()") == std::vector<int>{0});
  // not a dump at all
  CHECK(gl::bindings::tforcall_arity("", 76, 1) == 0);
  CHECK(gl::bindings::tforcall_arity(std::string("\x1bLua\x54\x00", 6), 76, 1) == 0);
  CHECK(gl::bindings::tforcall_arity(std::string(4096, '\xff'), 76, 1) == 0);
}
