// The Tensor userdata's metatable: method lookup, fields (x.device, x.shape,
// x.grad, ...), indexing, operators and printing. grad_fn objects: grad_fn_object.cpp.
#include <cstdio>
#include <cstring>
#include <string>
#include <iterator>
#include "bindings/luaT.h"
#include "tensor/core/warning.h"
#include "bindings/registry.h"
#include "bindings/tensor_data.h"
#include "bindings/udata.h"
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/core/format.h"
#include "tensor/ops/ops.h"

namespace gl::lt {

namespace {

// The names push_field answers, for tab completion (the metatable's __fields).
const char* const kTensorFields[] = {
    "device",        "dtype",        "data", "shape",   "is_cuda", "is_leaf", "itemsize", "is_cpu",
    "requires_grad", "retains_grad", "grad", "grad_fn", "T",       "ndim",    "nbytes",   "mT"};

bool push_field(lua_State* L, const Tensor& t, const char* k) {
  switch (k[0]) {
    case 'd':
      if (!std::strcmp(k, "device")) {
        push_device(L, t.device());
        return true;
      }
      if (!std::strcmp(k, "dtype")) {
        push_dtype(L, t.dtype());
        return true;
      }
      if (!std::strcmp(k, "data")) {
        push_tensor(L, variable_data(t));
        return true;
      }
      break;
    case 's':
      if (!std::strcmp(k, "shape")) {
        push_size(L, t.sizes());
        return true;
      }
      break;
    case 'i':
      if (!std::strcmp(k, "is_cuda")) {
        lua_pushboolean(L, t.device().is_cuda());
        return true;
      }
      if (!std::strcmp(k, "is_leaf")) {
        lua_pushboolean(L, t.is_leaf());
        return true;
      }
      if (!std::strcmp(k, "itemsize")) {
        lua_pushinteger(L, lua_Integer(itemsize(t.dtype())));
        return true;
      }
      if (!std::strcmp(k, "is_cpu")) {
        lua_pushboolean(L, t.device().is_cpu());
        return true;
      }
      break;
    case 'r':
      if (!std::strcmp(k, "requires_grad")) {
        lua_pushboolean(L, t.requires_grad());
        return true;
      }
      if (!std::strcmp(k, "retains_grad")) {
        lua_pushboolean(L, t.impl->retains_grad);
        return true;
      }
      break;
    case 'g':
      if (!std::strcmp(k, "grad")) {
        push_tensor(L, read_grad(t));
        return true;
      }
      if (!std::strcmp(k, "grad_fn")) {
        push_grad_fn(L, t.grad_fn());
        return true;
      }
      break;
    case 'T':
      if (!k[1]) {
        if (t.dim() != 0 && t.dim() != 2)
          warn(
              "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it "
              "will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
              "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.");
        Shape dims;
        for (int64_t i = t.dim() - 1; i >= 0; --i) dims.push_back(i);
        push_tensor(L, permute(t, dims));
        return true;
      }
      break;
    case 'n':
      if (!std::strcmp(k, "ndim")) {
        lua_pushinteger(L, t.dim());
        return true;
      }
      if (!std::strcmp(k, "nbytes")) {
        lua_pushinteger(L, t.numel() * int64_t(itemsize(t.dtype())));
        return true;
      }
      break;
    case 'm':
      if (!std::strcmp(k, "mT")) {
        push_tensor(L, transpose(t, -2, -1));
        return true;
      }
      break;
    case '_':
      if (!std::strcmp(k, "_version")) {  // in-place writes so far (Note [Version counter])
        lua_pushinteger(L, t.storage() ? t.storage()->version : 0);
        return true;
      }
      break;
  }
  return false;
}

int tensor_index(lua_State* L) {
  Tensor& t = check_tensor(L, 1, "self");
  if (lua_type(L, 2) == LUA_TSTRING) {
    lua_pushvalue(L, 2);
    lua_rawget(L, lua_upvalueindex(2));  // methods
    if (!lua_isnil(L, -1)) return 1;
    lua_pop(L, 1);
    const char* k = lua_tostring(L, 2);
    if (push_field(L, t, k)) return 1;
    if (push_named_tuple_field(L, 1, k)) return 1;  // x:max(1).indices
    // Python-style index strings: x[':, 1'], x['1:3'], x['...'], x['-1'].
    if (std::strpbrk(k, ":,.0123456789-") || !std::strcmp(k, "None")) {
      push_index(L, t, 2);
      return 1;
    }
    throw AttributeError(cat("'Tensor' object has no attribute '", k, "'"));
  }
  push_index(L, t, 2);
  return 1;
}

// PyTorch's checks on `x.grad = g` (THPVariable_set_grad), in its order.
void check_assigned_grad(const Tensor& t, const Tensor& g) {
  GL_CHECK(!t.is_same(g), "can't assign Variable as its own grad");
  GL_CHECK(g.dtype() == t.dtype(), "attempting to assign a gradient with dtype '", dtype_cpp_name(g.dtype()),
           "' to a tensor with grad_dtype '", dtype_legacy_name(t.dtype()),
           "'. The gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the "
           "tensor's grad_dtype attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with "
           "caution. Diverging the dtypes of a tensor and its gradient may break downstream systems that assume they "
           "match.");
  auto type = [](Device d) { return d.is_cpu() ? "cpu" : "cuda"; };
  GL_CHECK(g.device().is_cpu() == t.device().is_cpu(), "attempting to assign a gradient with device type '",
           type(g.device()), "' to a tensor with device type '", type(t.device()),
           "'. Please ensure that the gradient and the tensor are on the same device");
  GL_CHECK(g.device() == t.device(), "attempting to assign a gradient located on device with index '", g.device().index,
           "' to a tensor located on device with index '", t.device().index,
           "'. Please ensure that the gradient and the tensor are on the same device");
  GL_CHECK(g.sizes() == t.sizes(), "attempting to assign a gradient of size '", shape_str(g.sizes()),
           "' to a tensor of size '", shape_str(t.sizes()),
           "'. Please ensure that the gradient and the tensor are the same size");
}

int tensor_newindex(lua_State* L) {
  Tensor& t = check_tensor(L, 1, "self");
  if (lua_type(L, 2) == LUA_TSTRING && !std::strpbrk(lua_tostring(L, 2), ":,.0123456789-")) {
    std::string k = lua_tostring(L, 2);
    if (k == "requires_grad") {
      GL_CHECK_T(TypeError, lua_type(L, 3) == LUA_TBOOLEAN, "requires_grad must be a bool");
      t.set_requires_grad(lua_toboolean(L, 3));
    } else if (k == "grad") {
      if (lua_isnil(L, 3)) t.impl->grad.reset();
      else {
        Tensor* g = to_tensor(L, 3);
        GL_CHECK_T(TypeError, g, "assigned grad expected to be a Tensor or None but got grad of type ",
                   type_name(L, 3));
        check_assigned_grad(t, *g);
        t.set_grad(*g);
      }
    } else if (k == "data") {
      Tensor* dp = to_tensor(L, 3);
      GL_CHECK_T(TypeError, dp, "Variable data has to be a tensor, but got ", type_name(L, 3));
      Tensor& d = *dp;
      GL_CHECK(!t.requires_grad() || is_floating(d.dtype()),
               "data set to a tensor that requires gradients must be floating point or complex dtype");
      t.impl->storage = d.impl->storage;
      t.impl->sizes = d.sizes();
      t.impl->strides = d.strides();
      t.impl->offset = d.offset();
      t.impl->numel = d.numel();
      t.impl->dtype = d.dtype();
    } else {
      throw AttributeError(cat("'Tensor' object attribute '", k, "' is read-only or unknown"));
    }
    return 0;
  }
  assign_index(L, t, 2, 3);
  return 0;
}

int tensor_tostring(lua_State* L) {
  std::string s = tensor_repr(check_tensor(L, 1, "self"));
  lua_pushlstring(L, s.data(), s.size());
  return 1;
}

int tensor_len(lua_State* L) {
  Tensor& t = check_tensor(L, 1, "self");
  GL_CHECK_T(TypeError, t.dim() > 0, "len() of a 0-d tensor");
  lua_pushinteger(L, t.size(0));
  return 1;
}

int tensor_unm(lua_State* L) {
  push_tensor(L, neg(check_tensor(L, 1, "self")));
  return 1;
}

int tensor_bnot(lua_State* L) {
  Tensor& t = check_tensor(L, 1, "self");
  GL_CHECK(t.dtype() == DType::Bool, "gpulab: ~ is defined for bool tensors (use logical_not)");
  push_tensor(L, unary(UnaryOp::LogicalNot, t));
  return 1;
}

// Note [Order operators]: Lua turns what __lt and __le return into true or
// false, so x > 2 cannot make PyTorch's mask; without them Lua said "attempt
// to compare number with torch.Tensor". They raise an error that says what to
// write instead (d2l's X < Y is X:lt(Y) here).
int tensor_order(lua_State* L) {
  throw TypeError(
      "Lua's <, >, <= and >= give only true or false, never a tensor: for PyTorch's x > 2 write x:gt(2) "
      "(and x:lt(y), x:ge(y), x:le(y), or torch.gt(x, 2)); x:eq(y) and x:ne(y) compare values, where == asks "
      "whether two tensors are the same object");
}

}  // namespace

void open_tensor_type(lua_State* L) {
  open_grad_fn_type(L);
  lua_newtable(L);  // methods: the torch.Tensor class table
  set_functions(L, kTensorOps, "", true);
  set_functions(L, kTensorMatrixOps, "", true);
  set_functions(L, kTensorReduceOps, "", true);
  set_functions(L, kTensorMethods, "", true);
  set_functions(L, kTensorConversions, "", true);
  set_functions(L, kTensorViewMethods, "", true);
  set_functions(L, kSortOps, "", true);
  set_functions(L, kTernaryOps, "", true);
  set_functions(L, kTernaryInplace, "", true);
  set_functions(L, kShapeOps, "", true);
  set_functions(L, kShapeExtraMethods, "", true);
  set_functions(L, kReduceExtra, "", true);
  set_functions(L, kMatrixFunctions, "", true);
  luaL_getmetatable(L, "torch.Tensor");
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "__methods");
  lua_createtable(L, int(std::size(kTensorFields)), 0);
  for (size_t i = 0; i < std::size(kTensorFields); ++i) {
    lua_pushstring(L, kTensorFields[i]);
    lua_rawseti(L, -2, lua_Integer(i + 1));
  }
  lua_setfield(L, -2, "__fields");
  lua_pushvalue(L, -2);
  push_closure(L, tensor_index, 1);  // the methods table is upvalue 2
  lua_setfield(L, -2, "__index");
  static const Reg meta[] = {{"__newindex", tensor_newindex, nullptr}, {"__tostring", tensor_tostring, nullptr},
                             {"__len", tensor_len, nullptr},           {"__unm", tensor_unm, nullptr},
                             {"__bnot", tensor_bnot, nullptr},         {"__lt", tensor_order, nullptr},
                             {"__le", tensor_order, nullptr},          {nullptr, nullptr, nullptr}};
  set_functions(L, meta);
  // Binary operators reuse the bound ops (x + 1, 2 * x, mask1 & mask2); their TypeErrors
  // take Python's operator text (Note [Operator operands]).
  static const char* ops[][2] = {{"__add", "add"},           {"__sub", "sub"},          {"__mul", "mul"},
                                 {"__div", "div"},           {"__mod", "remainder"},    {"__pow", "pow"},
                                 {"__idiv", "floor_divide"}, {"__band", "bitwise_and"}, {"__bor", "bitwise_or"},
                                 {"__bxor", "bitwise_xor"}};
  for (auto& o : ops) {
    lua_getfield(L, -2, o[1]);
    lua_setfield(L, -2, o[0]);
  }
  lua_pop(L, 1);  // metatable; the methods table stays on the stack
}

}  // namespace gl::lt
