// torch._record_function(out, inputs, name, backward): the node of a custom
// torch.autograd.Function (bindings/lua/17_autograd_function.lua): out gets
// a grad_fn named `name` over the tensors among `inputs`, whose derivative
// calls the Lua `backward(grad)` back and checks what it returns as
// PyTorch's engine does: one gradient (or nil) per input, each of its input's
// shape.
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include "bindings/lua_callback.h"
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"

namespace gl::lt {

namespace {

// inputs: each input's shape, or nothing for an input that is not a tensor.
std::vector<Tensor> call_backward(const LuaCallback& fn, const std::string& name,
                                  const std::vector<std::optional<Shape>>& inputs, const Tensor& grad) {
  lua_State* L = fn.push();
  if (!L) return std::vector<Tensor>(inputs.size());
  const int base = lua_gettop(L) - 1;
  push_tensor(L, grad);
  if (lua_pcall(L, 1, LUA_MULTRET, 0) != LUA_OK) {
    std::string msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "(error object is not a string)";
    lua_settop(L, base);
    throw LuaCallbackError(msg);
  }
  const int got = lua_gettop(L) - base;
  std::vector<Tensor> grads(inputs.size());
  std::string error;
  if (got != int(inputs.size())) {
    error = cat("function ", name, " returned an incorrect number of gradients (expected ", inputs.size(), ", got ",
                got, ")");
  } else {
    for (int i = 0; i < got && error.empty(); ++i) {
      const int idx = base + 1 + i;
      if (lua_isnil(L, idx)) continue;
      Tensor* t = to_tensor(L, idx);
      if (!t) {
        error = cat("expected Variable or None (got ", type_name(L, idx), ")");
      } else if (!inputs[size_t(i)]) {
        error = cat("function ", name, " returned a gradient different than None at position ", i + 1,
                    ", but the corresponding forward input was not a Variable");
      } else if (inputs[size_t(i)] && t->sizes() != *inputs[size_t(i)]) {
        error = cat("Function ", name, " returned an invalid gradient at index ", i, " - got ", shape_str(t->sizes()),
                    " but expected shape compatible with ", shape_str(*inputs[size_t(i)]));
      } else if (inputs[size_t(i)]) {
        grads[size_t(i)] = *t;
      }
    }
  }
  lua_settop(L, base);
  if (!error.empty()) throw RuntimeError(error);
  return grads;
}

// torch._record_function(out, inputs (with n), name, backward[, saved])
int record_function(lua_State* L) {
  Tensor& out = check_tensor(L, 1, "out");
  luaL_checktype(L, 2, LUA_TTABLE);
  const std::string name = luaL_checkstring(L, 3);
  luaL_checktype(L, 4, LUA_TFUNCTION);
  lua_getfield(L, 2, "n");
  const lua_Integer n = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : lua_Integer(lua_rawlen(L, 2));
  lua_pop(L, 1);
  GL_CHECK(n >= 0 && n <= 1000, "a custom Function takes at most 1000 inputs, got ", n);
  std::vector<Tensor> inputs(size_t(n > 0 ? n : 0));
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, 2, i);
    if (Tensor* t = to_tensor(L, -1)) inputs[size_t(i - 1)] = *t;
    lua_pop(L, 1);
  }
  auto fn = LuaCallback::keep(L, 4);
  std::vector<std::optional<Shape>> shapes;  // only the shapes are read later: no storage is kept
  for (const Tensor& t : inputs) shapes.push_back(t.defined() ? std::optional<Shape>(t.sizes()) : std::nullopt);
  record(out, name.c_str(), inputs,
         [fn, name, shapes](const Tensor& g) { return call_backward(*fn, name, shapes, g); });
  if (!out.grad_fn()) return 0;
  out.grad_fn()->module = "torch.autograd.function";
  if (lua_istable(L, 5)) {  // ctx:save_for_backward's tensors (Note [Version counter])
    const lua_Integer m = lua_Integer(lua_rawlen(L, 5));
    for (lua_Integer i = 1; i <= m; ++i) {
      lua_rawgeti(L, 5, i);
      if (Tensor* t = to_tensor(L, -1)) save_version(*out.grad_fn(), *t, out, inputs);
      lua_pop(L, 1);
    }
  }
  return 0;
}

}  // namespace

void open_autograd_function(lua_State* L) {
  push_function(L, record_function,
                "internal: the node of a custom torch.autograd.Function (17_autograd_function.lua)");
  lua_setfield(L, -2, "_record_function");
}

}  // namespace gl::lt
