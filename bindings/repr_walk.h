// The walk of a Lua value that repr() and the echo share (repr.cpp): one
// description of a value, printed by a plain Pretty as Python's repr and by
// a line-breaking one as IPython's display (Note [IPython's pretty printer]).
#pragma once
#include <vector>
#include "bindings/luaT.h"
#include "bindings/pretty.h"

namespace gl::lt {

struct ReprCtx {
  explicit ReprCtx(Pretty& pretty) : p(pretty) {}
  Pretty& p;
  int budget = 1000;              // IPython's max_seq_length, here for the whole echo
  std::vector<const void*> path;  // tables being printed: a cycle prints [...]
};

// IPython's p.pretty(obj) for the value at idx.
void pretty_value(lua_State* L, int idx, ReprCtx& ctx);
// Starts item i (from 1) of a sequence: "," and a separator before all but
// the first; false, after "...", once the echo's budget is spent.
bool next_item(ReprCtx& ctx, lua_Integer i);

}  // namespace gl::lt
