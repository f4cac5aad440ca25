// Grad-mode scopes for the Lua half (torch.no_grad, enable_grad, zero_grad,
// the optimizers). Written in C so that no Lua instruction runs between
// switching the mode and entering the protected call, nor between leaving it
// and switching back: an interrupt or an error raised by a debug hook can
// only land inside the call, where the restore still runs.
#include "bindings/bindings.h"
#include "bindings/registry.h"
#include "tensor/autograd/node.h"

namespace gl::lt {

namespace {

const char kGuardWindowKey = 0;  // registry: a guard was just made (Note [Guard window])

// Note [Trampoline]: these are plain lua_CFunctions (they raise with
// lua_error and yield through lua_pcallk), so no C++ object is alive in them.
int with_grad_mode_done(lua_State* L, int status, lua_KContext prev) {
  GradMode::set(prev != 0);
  if (status != LUA_OK && status != LUA_YIELD) return lua_error(L);  // re-raise unchanged
  return lua_gettop(L) - 1;
}

// torch._with_grad_mode(mode, fn, ...): fn(...) with grad mode `mode`; the
// previous mode comes back however fn ends (a yield keeps `mode` until resumed).
int with_grad_mode(lua_State* L) {
  if (lua_type(L, 1) != LUA_TBOOLEAN) return luaL_typeerror(L, 1, "boolean");
  const bool prev = GradMode::enabled();
  GradMode::set(lua_toboolean(L, 1));
  int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, prev, with_grad_mode_done);
  return with_grad_mode_done(L, status, prev);
}

// Python's repr of the context manager: <torch.autograd.grad_mode.no_grad object at 0x...>.
int guard_tostring(lua_State* L) {
  luaL_getmetafield(L, 1, "__name");
  lua_pushfstring(L, "<torch.autograd.grad_mode.%s object at %p>", lua_tostring(L, -1), lua_topointer(L, 1));
  return 1;
}

int guard_close(lua_State* L) {
  lua_getfield(L, 1, "prev");
  GradMode::set(lua_toboolean(L, -1));
  return 0;
}

// torch._grad_guard(mode, name): a to-be-closed value that restores the mode
// it saw; the mode is switched last, once the guard exists.
int grad_guard(lua_State* L) {
  const bool mode = lua_toboolean(L, 1);
  const char* name = lua_tostring(L, 2);
  lua_createtable(L, 0, 1);
  lua_pushboolean(L, GradMode::enabled());
  lua_setfield(L, -2, "prev");
  lua_createtable(L, 0, 4);
  lua_pushcfunction(L, guard_close);
  lua_setfield(L, -2, "__close");
  lua_pushstring(L, name ? name : "grad_mode");
  lua_setfield(L, -2, "__name");
  lua_pushcfunction(L, guard_tostring);
  lua_setfield(L, -2, "__tostring");
  if (name) {  // Note [Guards left on the prompt] (interpreter/evaluate.cpp)
    lua_pushfstring(L, "torch.%s", name);
    lua_setfield(L, -2, "__scope");
  }
  lua_setmetatable(L, -2);
  lua_pushboolean(L, 1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kGuardWindowKey);
  GradMode::set(mode);
  return 1;
}

}  // namespace

void open_grad_scope(lua_State* L) {
  lua_pushcfunction(L, with_grad_mode);
  lua_setfield(L, -2, "_with_grad_mode");
  lua_pushcfunction(L, grad_guard);
  lua_setfield(L, -2, "_grad_guard");
}

}  // namespace gl::lt

namespace gl::bindings {

void open_guard_window(lua_State* L) {
  lua_pushboolean(L, 1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &lt::kGuardWindowKey);
}

bool take_guard_window(lua_State* L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &lt::kGuardWindowKey);
  const bool open = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (open) {
    lua_pushboolean(L, 0);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &lt::kGuardWindowKey);
  }
  return open;
}

}  // namespace gl::bindings
