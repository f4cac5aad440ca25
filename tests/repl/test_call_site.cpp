// for_loop_arity / results_wanted / call_operand_c (bindings/call_site.h): what
// the instruction calling a function wants back, read from Lua 5.4 bytecode
// (Note [for X, y in loader]).
#include <doctest/doctest.h>
#include <lua.hpp>
#include <string>
#include <vector>
#include "bindings/call_site.h"

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
  // two loops on one line with different counts in the same registers
  CHECK(arities("for a in it do end for b, c in it do end") == std::vector<int>{0, 0});
  // nested on one line: different registers tell them apart
  CHECK(arities("for a in it do for b, c in it do end end") == std::vector<int>{1, 2});
  // called from C, not from a for loop
  CHECK(arities("local ok = pcall(it, nil, nil)") == std::vector<int>{0});
  // a stripped chunk has no line table
  CHECK(arities("load(string.dump(load('for a, b in it do end'), true))()") == std::vector<int>{0});
  // not a dump at all
  CHECK(gl::bindings::call_operand_c("", 76, 1, -1) == -1);
  CHECK(gl::bindings::call_operand_c(std::string("\x1bLua\x54\x00", 6), 76, 1, -1) == -1);
  CHECK(gl::bindings::call_operand_c(std::string(4096, '\xff'), 76, 1, -1) == -1);
}

namespace {

// Runs `src` with a global `f` that records results_wanted one level up.
std::vector<int> wanted(const std::string& src) {
  static std::vector<int>* out = nullptr;
  std::vector<int> seen;
  out = &seen;
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  lua_pushcfunction(L, [](lua_State* S) -> int {
    out->push_back(gl::bindings::results_wanted(S, 1));
    return 0;
  });
  lua_setglobal(L, "f");
  if (luaL_dostring(L, src.c_str()) != LUA_OK) FAIL(lua_tostring(L, -1));
  lua_close(L);
  return seen;
}

}  // namespace

TEST_CASE("the results a call keeps, as the called function sees them") {
  CHECK(wanted("local a, b = f()") == std::vector<int>{2});
  CHECK(wanted("x = f()") == std::vector<int>{1});
  CHECK(wanted("f()") == std::vector<int>{0});
  CHECK(wanted("print(f())") == std::vector<int>{-1});
  CHECK(wanted("local t = {f()}") == std::vector<int>{-1});
  // several calls on one line: the registers tell them apart
  CHECK(wanted("local a, b, c = f(f(), f())") == std::vector<int>{1, -1, 3});
  CHECK(wanted("local x = 1\nlocal p, q = f(), f()") == std::vector<int>{1, 1});
  CHECK(wanted("local function g() local a, b = f() end g()") == std::vector<int>{2});
  // a tail call has no calling frame of its own: unknown
  CHECK(wanted("local function g() return f() end local a, b = g()") == std::vector<int>{-2});
}
