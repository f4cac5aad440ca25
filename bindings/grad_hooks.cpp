// x:register_hook(fn) (Note [Tensor hooks] in tensor/autograd/node.h): the Lua
// function kept in the registry, called by the engine through a GradHook,
// and the handle whose :remove() takes it off again.
#include <memory>
#include <string>
#include <unordered_set>
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"

namespace gl::lt {

namespace {

constexpr const char* kHooks = "gpulab.grad_hooks";  // registry: id -> the Lua function

// The states whose registry a hook may still touch: a hook's function outlives
// neither its state (the entry is dropped while the state is open) nor
// anything else (the C++ side may free a node after lua_close).
std::unordered_set<lua_State*>& open_states() {
  static std::unordered_set<lua_State*> s;
  return s;
}
int close_state(lua_State* L) {
  open_states().erase(static_cast<lua_State*>(lua_touserdata(L, lua_upvalueindex(1))));
  return 0;
}

// The Lua state of the backward pass running on this thread (HookScope).
thread_local lua_State* g_running = nullptr;

void push_hooks_table(lua_State* L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, kHooks) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, kHooks);
}

// The registry entry of one hook, dropped with the last copy of its GradHook.
struct HookRef {
  lua_State* main;
  int id;
  ~HookRef() {
    if (!open_states().count(main)) return;
    push_hooks_table(main);
    lua_pushnil(main);
    lua_rawseti(main, -2, id);
    lua_pop(main, 1);
  }
};

Tensor call_hook(const HookRef& ref, const Tensor& grad) {
  lua_State* L = g_running;
  if (!L) return Tensor();  // a pass not started from Lua
  if (!lua_checkstack(L, 4)) throw RuntimeError("stack overflow calling a gradient hook");
  push_hooks_table(L);
  lua_rawgeti(L, -1, ref.id);
  lua_remove(L, -2);
  push_tensor(L, grad);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
    std::string msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(error object is not a string)";
    lua_pop(L, 1);
    throw LuaCallbackError(msg);
  }
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

// x:register_hook(fn) -> handle: fn(grad) runs when x's gradient is
// computed; a tensor it returns replaces that gradient.
int register_hook(lua_State* L) {
  Tensor& t = check_tensor(L, 1, "self");
  const bool callable =
      lua_isfunction(L, 2) || (luaL_getmetafield(L, 2, "__call") != LUA_TNIL && (lua_pop(L, 1), true));
  if (!callable) throw TypeError(cat("register_hook(): argument 'hook' must be callable, not ", type_name(L, 2)));
  lua_settop(L, 2);
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
  lua_State* main = lua_tothread(L, -1);
  lua_pop(L, 1);
  auto ref = std::make_shared<HookRef>(HookRef{main, 0});
  const int id = add_grad_hook(t, [ref](const Tensor& g) { return call_hook(*ref, g); });
  ref->id = id;
  push_hooks_table(L);
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, id);
  lua_pop(L, 1);
  lua_pushinteger(L, id);
  return 1;
}

// torch._remove_grad_hook(x, id): the handle's remove().
int remove_hook(lua_State* L) {
  Tensor& t = check_tensor(L, 1, "self");
  lua_pushboolean(L, remove_grad_hook(t, int(luaL_checkinteger(L, 2))));
  return 1;
}

}  // namespace

HookScope::HookScope(lua_State* L) : prev(g_running) { g_running = L; }
HookScope::~HookScope() { g_running = prev; }

void open_grad_hooks(lua_State* L) {
  open_states().insert(L);
  // a sentinel collected when the state closes (after the tensors made before it)
  lua_newuserdatauv(L, 1, 0);
  lua_newtable(L);
  lua_pushlightuserdata(L, L);
  lua_pushcclosure(L, close_state, 1);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, "gpulab.grad_hooks_sentinel");
  push_function(L, register_hook, "internal: x:register_hook's C half (17_autograd.lua)");
  lua_setfield(L, -2, "_register_hook");
  push_function(L, remove_hook, "internal: a hook handle's remove()");
  lua_setfield(L, -2, "_remove_grad_hook");
}

}  // namespace gl::lt
