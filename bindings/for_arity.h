// The number of variables a generic `for` declares, for iterators that yield
// what Python would unpack (Note [for X, y in loader], for_arity.cpp).
#pragma once
#include <string>

struct lua_State;

namespace gl::bindings {

// The variables of the generic for whose iterator call is running at stack
// `level` (lua_getstack's numbering: the function at `level` is the loop's),
// or 0 when that cannot be known.
int for_loop_arity(lua_State* L, int level);

// The C operand of the `tforcall` instructions on `line` of the top function
// of a Lua 5.4 dump; 0 if there is none, they disagree, or the dump is not one.
int tforcall_arity(const std::string& dump, int tforcall, int line);

}  // namespace gl::bindings
