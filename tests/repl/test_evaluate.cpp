// The final expression of a cell or a REPL line (Note [Final expression]).
#include <doctest/doctest.h>

#include <lua.hpp>

#include "interpreter/evaluate.h"

using gl::interp::with_final_return;

TEST_CASE("the last statement gets 'return' when it is an expression") {
  lua_State* L = luaL_newstate();
  CHECK(with_final_return(L, "y:backward(); x.grad") == "y:backward(); return x.grad");
  CHECK(with_final_return(L, "a = 1; b = 2; a + b") == "a = 1; b = 2; return a + b");
  CHECK(with_final_return(L, "x = f()\nx.device") == "x = f()\nreturn x.device");
  CHECK(with_final_return(L, "s = 'a;b'; s") == "s = 'a;b'; return s");  // a ';' in a string is no split
  CHECK(with_final_return(L, "x = f()\n-- a comment") == "");            // a comment is no expression
  // a trailing ';' still splits; the caller silences the echo (echo_suppressed)
  CHECK(with_final_return(L, "y:backward(); x.grad;") == "y:backward(); return x.grad;");
  CHECK(with_final_return(L, "t = {1, 2;") == "");                  // incomplete: the REPL reads on
  CHECK(with_final_return(L, "for i = 1, 2 do f(); i end") == "");  // never inside a block
  CHECK(with_final_return(L, "y = (") == "");
  // statements that compile: their last one still echoes, as in IPython
  CHECK(with_final_return(L, "print('a'); x:sum()") == "print('a'); return x:sum()");
  CHECK(with_final_return(L, "x = 1\nf(x)") == "x = 1\nreturn f(x)");
  // ... unless, after a newline, it continues the statement before it: Lua reads one call
  CHECK(with_final_return(L, "x = f\n(g)") == "");
  CHECK(with_final_return(L, "x = f; (g)()") == "x = f; return (g)()");  // after ';' it cannot
  lua_close(L);
}
