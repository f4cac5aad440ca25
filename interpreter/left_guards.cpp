// The REPL's echo and the guards it closes (Note [Guards left on the prompt]).
#include "interpreter/evaluate.h"
#include <lua.hpp>

namespace gl::interp {

// Note [Guards left on the prompt]: torch.no_grad() or torch.autocast('cuda')
// typed as a line of its own makes a guard that nothing will close; in
// PyTorch the object alone does nothing (only `with` enters it). The echo
// closes such a guard at once, so the mode is as it was, and pushes a hint
// saying how gpulab enters one for a block (returns false, pushing nothing,
// when no value is a guard). A guard's metatable names it in __scope.
bool close_echoed_guards(lua_State* L, int first, int n) {
  const char* name = nullptr;  // in the guard's metatable, which the value on the stack keeps alive
  for (int i = first; i < first + n; ++i) {
    const int top = lua_gettop(L);
    if (!lua_istable(L, i) || !lua_getmetatable(L, i)) continue;
    if (lua_getfield(L, top + 1, "__scope") == LUA_TSTRING && lua_getfield(L, top + 1, "__close") == LUA_TFUNCTION) {
      name = lua_tostring(L, top + 2);
      lua_pushvalue(L, i);
      lua_call(L, 1, 0);
    }
    lua_settop(L, top);
  }
  if (name == nullptr) return false;
  lua_pushfstring(L,
                  "hint: %s(...) left as a line's value is closed at once: the object alone does nothing in PyTorch "
                  "(only `with` enters it). For a block: %s(..., function() ... end), or `local _ <close> = %s(...)` "
                  "inside a do ... end block",
                  name, name, name);
  return true;
}

}  // namespace gl::interp
