// What the instruction calling a function wants back, for functions that
// give what Python would unpack (Note [for X, y in loader], call_site.cpp).
#pragma once
#include <string>

struct lua_State;

namespace gl::bindings {

// torch._for_arity and torch._results_wanted, into the table on the stack.
void open_call_site(lua_State* L);

// The names of the generic for whose iterator call is running at stack
// `level` (lua_getstack's numbering: the function at `level` is the loop's),
// or 0 when that cannot be known.
int for_loop_arity(lua_State* L, int level);

// The number of results the call made from the frame at `level` keeps:
// `a, b = f()` 2, `x = f()` 1, `f()` 0; -1 for all of them (`g(f())`,
// `return f()` in a frame that is not a tail call); -2 when unknown.
int results_wanted(lua_State* L, int level);

// Whether the call made from the frame at `level` has its result indexed by
// an integer constant at once, f(...)[1] (false when that cannot be known).
bool result_indexed(lua_State* L, int level);

// The C operand of the instructions with opcode `op` (and A operand `a`,
// unless a < 0) on `line` of the top function of a Lua 5.4 dump; -1 if there
// is none, they disagree, or the dump is not one.
int call_operand_c(const std::string& dump, int op, int line, int a);

}  // namespace gl::bindings
