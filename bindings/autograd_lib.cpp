// torch.autograd.grad's C half (the engine's autograd_grad, Note [One
// engine]): outputs and inputs are a tensor or a table of tensors,
// grad_outputs likewise (nil entries: implicit ones). It returns the
// gradients as one table and their count (an unused input's is nil); the Lua
// half (17_autograd.lua) makes that table Python's tuple. Also anomaly
// mode's switch and the Lua stack it records (17_autograd_anomaly.lua).
#include "bindings/luaT.h"
#include "bindings/lua_callback.h"
#include "bindings/registry.h"
#include "tensor/autograd/anomaly.h"
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"

namespace gl::lt {

namespace {

// A tensor or a table of tensors, as Python's tuple(x) would take it.
std::vector<Tensor> tensors_arg(Args& a, int i, const char* name) {
  const int idx = a.at(i, name);
  if (Tensor* t = idx ? to_tensor(a.L, idx) : nullptr) return {*t};
  GL_CHECK_T(TypeError, idx && lua_type(a.L, idx) == LUA_TTABLE, "'", idx ? type_name(a.L, idx) : "NoneType",
             "' object is not iterable");
  return a.tensor_list(i, name);
}

int grad(lua_State* L) {
  Args a(L, 1, "grad");
  std::vector<Tensor> outputs = tensors_arg(a, 0, "outputs");
  // grad(y, {}): the empty table reads as the options, and is no inputs
  std::vector<Tensor> inputs =
      a.has(1, "inputs") || !a.empty_options() ? tensors_arg(a, 1, "inputs") : std::vector<Tensor>{};
  std::vector<Tensor> grad_outputs(outputs.size());
  if (const int idx = a.at(2, "grad_outputs")) {
    if (Tensor* t = to_tensor(L, idx)) {
      grad_outputs[0] = *t;
    } else {
      GL_CHECK_T(TypeError, lua_type(L, idx) == LUA_TTABLE,
                 "grad(): argument 'grad_outputs' must be a Tensor or a table of Tensors, not ", type_name(L, idx));
      for (size_t k = 0; k < outputs.size(); ++k) {
        lua_rawgeti(L, idx, lua_Integer(k + 1));
        if (Tensor* t = to_tensor(L, -1)) grad_outputs[k] = *t;
        else
          GL_CHECK_T(TypeError, lua_isnil(L, -1), "grad(): expected Tensor or nil as element ", k,
                     " in argument 'grad_outputs', but got ", type_name(L, -1));
        lua_pop(L, 1);
      }
    }
  }
  GradOptions o;
  if (a.has(3, "retain_graph")) o.retain_graph = a.boolean(3, "retain_graph", false);
  o.create_graph = a.boolean(4, "create_graph", false);
  (void)a.boolean(5, "only_inputs", true);  // deprecated and ignored, as in PyTorch
  const bool unused_given = a.has(6, "allow_unused");
  o.allow_unused = a.boolean(6, "allow_unused", false);
  GL_CHECK_T(NotImplementedError, !a.boolean(7, "is_grads_batched", false),
             "gpulab: is_grads_batched=True is not supported");
  o.materialize_grads = a.boolean(8, "materialize_grads", false);
  a.finish(9);
  GL_CHECK_T(
      ValueError, !(o.materialize_grads && unused_given && !o.allow_unused),
      "Expected allow_unused to be True or not passed when materialize_grads=True, but got: allow_unused=False.");
  if (!unused_given) o.allow_unused = o.materialize_grads;
  HookScope hooks(L);  // gradient hooks run in this state (Note [Tensor hooks])
  std::vector<Tensor> grads = autograd_grad(outputs, inputs, grad_outputs, o);
  lua_createtable(L, int(grads.size()), 0);
  for (size_t k = 0; k < grads.size(); ++k) {
    if (!grads[k].defined()) continue;
    push_tensor(L, grads[k]);
    lua_rawseti(L, -2, lua_Integer(k + 1));
  }
  lua_pushinteger(L, lua_Integer(grads.size()));
  return 2;
}

// Anomaly mode's forward trace (Note [Anomaly mode]): the main thread's Lua
// stack, as a traceback prints it, without its header and the host's frame.
std::string lua_forward_trace(void* ctx) {
  auto* L = static_cast<lua_State*>(ctx);
  luaL_traceback(L, L, nullptr, 1);
  std::string t = lua_tostring(L, -1);
  lua_pop(L, 1);
  if (t.rfind("stack traceback:\n", 0) == 0) t.erase(0, 17);
  const std::string host = "\n\t[C]: in ?";
  if (t.size() >= host.size() && t.compare(t.size() - host.size(), host.size(), host) == 0)
    t.resize(t.size() - host.size());
  return t;
}

int forget_forward_trace(lua_State*) {
  set_forward_trace_hook(nullptr, nullptr);
  AnomalyMode::set(false, true);
  return 0;
}

// torch.autograd._set_detect_anomaly(mode, check_nan)
int set_detect_anomaly(lua_State* L) {
  GL_CHECK_T(TypeError, lua_type(L, 1) == LUA_TBOOLEAN, "set_detect_anomaly(): argument 'mode' must be bool");
  GL_CHECK_T(TypeError, lua_type(L, 2) == LUA_TBOOLEAN, "set_detect_anomaly(): argument 'check_nan' must be bool");
  if (lua_getfield(L, LUA_REGISTRYINDEX, "gpulab.anomaly") == LUA_TNIL) {
    // the hook holds the main thread: a sentinel unsets it when the state closes
    lua_newuserdatauv(L, 0, 0);
    lua_newtable(L);
    lua_pushcfunction(L, forget_forward_trace);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, "gpulab.anomaly");
    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
    set_forward_trace_hook(lua_forward_trace, lua_tothread(L, -1));
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  AnomalyMode::set(lua_toboolean(L, 1), lua_toboolean(L, 2));
  return 0;
}

int is_anomaly_enabled(lua_State* L) {
  lua_pushboolean(L, AnomalyMode::enabled());
  return 1;
}
int is_anomaly_check_nan_enabled(lua_State* L) {
  lua_pushboolean(L, AnomalyMode::check_nan());
  return 1;
}

}  // namespace

const Reg kAutograd[] = {
    {"_grad", grad, "internal: torch.autograd.grad's C half (17_autograd.lua)"},
    {"_set_detect_anomaly", set_detect_anomaly, "internal: anomaly mode on or off (17_autograd_anomaly.lua)"},
    {"_is_anomaly_enabled", is_anomaly_enabled, "internal: torch.is_anomaly_enabled (17_autograd_anomaly.lua)"},
    {"_is_anomaly_check_nan_enabled", is_anomaly_check_nan_enabled,
     "internal: torch.is_anomaly_check_nan_enabled (17_autograd_anomaly.lua)"},
    {nullptr, nullptr, nullptr}};

}  // namespace gl::lt
