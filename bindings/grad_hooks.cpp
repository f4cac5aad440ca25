// x:register_hook(fn) (Note [Tensor hooks] in tensor/autograd/node.h): the Lua
// function kept as a LuaCallback, called by the engine through a GradHook;
// the handle's :remove() (bindings/lua/11_nn_hooks.lua) takes it off again.
#include <memory>
#include <string>
#include "bindings/lua_callback.h"
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"

namespace gl::lt {

namespace {

// The error a Lua function raised, re-raised through the engine unchanged.
[[noreturn]] void rethrow_lua_error(lua_State* L) {
  std::string msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(error object is not a string)";
  lua_pop(L, 1);
  throw LuaCallbackError(msg);
}

Tensor call_hook(const LuaCallback& fn, const Tensor& grad) {
  lua_State* L = fn.push();
  if (!L) return Tensor();  // a pass not started from Lua
  push_tensor(L, grad);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) rethrow_lua_error(L);
  Tensor out;
  if (Tensor* t = to_tensor(L, -1)) out = *t;
  else if (!lua_isnil(L, -1)) {
    const std::string got = type_name(L, -1);
    lua_pop(L, 1);
    throw TypeError(cat("expected Variable, but hook returned '", got, "'"));
  }
  lua_pop(L, 1);
  return out;
}

bool is_callable(lua_State* L, int idx) {
  if (lua_isfunction(L, idx)) return true;
  const bool has = luaL_getmetafield(L, idx, "__call") != LUA_TNIL;
  if (has) lua_pop(L, 1);
  return has;
}

// torch._register_hook(x, fn) -> id: fn(grad) runs when x's gradient is
// computed; a tensor it returns replaces that gradient.
int register_hook(lua_State* L) {
  Tensor& t = check_tensor(L, 1, "self");
  if (!is_callable(L, 2))
    throw TypeError(cat("register_hook(): argument 'hook' must be callable, not ", type_name(L, 2)));
  auto fn = LuaCallback::keep(L, 2);
  lua_pushinteger(L, add_grad_hook(t, [fn](const Tensor& g) { return call_hook(*fn, g); }));
  return 1;
}

// torch._remove_grad_hook(x, id): the handle's remove().
int remove_hook(lua_State* L) {
  Tensor& t = check_tensor(L, 1, "self");
  lua_pushboolean(L, remove_grad_hook(t, int(luaL_checkinteger(L, 2))));
  return 1;
}

}  // namespace

void open_grad_hooks(lua_State* L) {
  open_lua_callbacks(L);
  push_function(L, register_hook, "internal: x:register_hook's C half (11_nn_hooks.lua)");
  lua_setfield(L, -2, "_register_hook");
  push_function(L, remove_hook, "internal: a hook handle's remove()");
  lua_setfield(L, -2, "_remove_grad_hook");
}

}  // namespace gl::lt
