// Lua functions the C++ side calls back later, from inside the autograd
// engine: gradient hooks (grad_hooks.cpp) and custom Functions' backward
// (autograd_function.cpp).
#pragma once
#include <memory>
#include <stdexcept>

struct lua_State;

namespace gl::lt {

// A Lua function kept in its state's registry, dropped with the last copy of
// the pointer (while the state is open; after lua_close there is nothing to
// drop). Called in the state of the backward pass running on this thread.
struct LuaCallback {
  static std::shared_ptr<LuaCallback> keep(lua_State* L, int idx);
  ~LuaCallback();
  // Pushes the function on the running pass's state and returns it; nullptr
  // when no pass started from Lua runs (nothing pushed).
  lua_State* push() const;
  lua_State* main = nullptr;
  int id = 0;
};

// The state a backward pass started from Lua calls back into (set by
// backward() and autograd.grad()'s bindings).
struct HookScope {
  explicit HookScope(lua_State* L);
  ~HookScope();
  lua_State* prev;
};

// Makes the registry table and the sentinel that marks the state closed.
void open_lua_callbacks(lua_State* L);

}  // namespace gl::lt
