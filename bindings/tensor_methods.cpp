// Tensor methods that are not also torch functions: shape queries, value
// access, fills, comparisons, new_* and autograd entry points. Views and
// reshapes: tensor_view_methods.cpp; to/cuda/cpu/float...: tensor_conversions.cpp.
#include <cmath>
#include "bindings/lua_callback.h"
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "bindings/tensor_data.h"
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/ops.h"
#include "tensor/runtime/registry.h"

namespace gl::lt {

namespace {

Tensor& self(lua_State* L) { return check_tensor(L, 1, "self"); }

int size(lua_State* L) {
  Args a(L, 2, "size");
  if (auto d = a.opt_integer(0, "dim")) {
    lua_pushinteger(L, self(L).size(*d));
    return 1;
  }
  push_size(L, self(L).sizes());
  return 1;
}
int stride(lua_State* L) {
  Args a(L, 2, "stride");
  if (auto d = a.opt_integer(0, "dim")) {
    lua_pushinteger(L, self(L).stride(*d));
    return 1;
  }
  lua_createtable(L, int(self(L).dim()), 0);
  for (int64_t i = 0; i < self(L).dim(); ++i) {
    lua_pushinteger(L, self(L).strides()[size_t(i)]);
    lua_rawseti(L, -2, i + 1);
  }
  mark_tuple(L, -1);  // Python's tuple: (3, 1)
  return 1;
}
int dim(lua_State* L) {
  lua_pushinteger(L, self(L).dim());
  return 1;
}
int numel(lua_State* L) {
  lua_pushinteger(L, self(L).numel());
  return 1;
}
int element_size(lua_State* L) {
  lua_pushinteger(L, lua_Integer(itemsize(self(L).dtype())));
  return 1;
}
// x:storage_offset() and x:data_ptr(): where a view starts in its storage,
// in elements and as an address (0 for a tensor with no data), as PyTorch's:
// two views of one tensor differ by their offsets, x:clone() has its own memory.
int storage_offset(lua_State* L) {
  lua_pushinteger(L, self(L).offset());
  return 1;
}
int data_ptr(lua_State* L) {
  lua_pushinteger(L, lua_Integer(reinterpret_cast<intptr_t>(self(L).data_ptr())));
  return 1;
}
int is_contiguous(lua_State* L) {
  lua_pushboolean(L, self(L).is_contiguous());
  return 1;
}
int is_floating_point(lua_State* L) {
  lua_pushboolean(L, is_floating(self(L).dtype()));
  return 1;
}
int l_contiguous(lua_State* L) {
  push_tensor(L, contiguous(self(L)));
  return 1;
}
int l_pin_memory(lua_State* L) {
  push_tensor(L, pin_memory(self(L)));
  return 1;
}
int l_is_pinned(lua_State* L) {
  lua_pushboolean(L, is_pinned(self(L)));
  return 1;
}
int l_clone(lua_State* L) {
  push_tensor(L, clone(self(L)));
  return 1;
}
int l_detach(lua_State* L) {
  push_tensor(L, detach(self(L)));
  return 1;
}
int l_item(lua_State* L) {
  push_scalar(L, item(self(L)));
  return 1;
}
int tolist(lua_State* L) {
  Tensor& t = self(L);
  if (t.dim() == 0) push_scalar(L, item(t));
  else push_list(L, t);
  return 1;
}

// x:type('torch.IntTensor') as PyTorch's options_from_string reads it: the
// dtype, and the device type (a CUDA tensor stays on its device; a CPU one
// goes to the current CUDA device).
int type_from_name(lua_State* L, Tensor& t, const std::string& name) {
  const bool cuda = name.rfind("torch.cuda.", 0) == 0;
  const std::string base = name.rfind("torch.", 0) == 0 ? name.substr(cuda ? 11 : 6) : "";
  for (int i = 0; i < kNumDTypes; ++i) {  // torch.FloatTensor, torch.cuda.LongTensor
    if (base != std::string(dtype_legacy_name(DType(i))) + "Tensor") continue;
    std::optional<Device> dev;
    if (cuda != t.device().is_cuda()) dev = cuda ? Device(Device::CUDA) : Device(Device::CPU);
    push_tensor(L, to(t, dev, DType(i)));
    return 1;
  }
  throw ValueError(cat("invalid type: '", name, "'"));
}

int l_type(lua_State* L) {
  Tensor& t = self(L);
  if (lua_gettop(L) >= 2 && !lua_isnil(L, 2)) {
    if (lua_type(L, 2) == LUA_TSTRING) return type_from_name(L, t, lua_tostring(L, 2));
    auto d = to_dtype(L, 2);
    GL_CHECK_T(TypeError, d.has_value(), "dtype must be a type, str, or dtype object");
    push_tensor(L, to(t, std::nullopt, *d));
    return 1;
  }
  std::string s =
      std::string(t.device().is_cuda() ? "torch.cuda." : "torch.") + dtype_legacy_name(t.dtype()) + "Tensor";
  lua_pushstring(L, s.c_str());
  return 1;
}
int type_as(lua_State* L) {
  push_tensor(L, to(self(L), std::nullopt, check_tensor(L, 2, "other").dtype()));
  return 1;
}
int get_device(lua_State* L) {
  Tensor& t = self(L);
  lua_pushinteger(L, t.device().is_cpu() ? -1 : t.device().index);
  return 1;
}

int l_copy_(lua_State* L) {
  Tensor& t = self(L);
  Args a(L, 2, "copy_");
  Tensor& src = a.tensor(0, "src");
  a.boolean(1, "non_blocking", false);  // a copy is complete when copy_ returns, which non_blocking allows
  a.finish(2);
  copy_recorded_(t, src);
  lua_settop(L, 1);
  return 1;
}
int l_fill_(lua_State* L) {
  Tensor& t = self(L);
  Args a(L, 2, "fill_");
  Tensor* v = to_tensor(L, a.at(0, "value"));
  if (v)
    GL_CHECK(v->dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ", v->dim(),
             " dimensions.");
  fill_recorded_(t, a.scalar(0, "value"), v);
  lua_settop(L, 1);
  return 1;
}
// x:where(condition, other): PyTorch's Tensor.where is torch.where(condition,
// x, other); the shared torch.where would take x for the condition.
int where_method(lua_State* L) {
  Tensor& t = self(L);
  Args a(L, 2, "where");
  Tensor& c = a.tensor(0, "condition");
  Tensor* o = to_tensor(L, a.at(1, "other"));
  push_tensor(L, gl::where(c, Other::of(t), o ? Other::of(*o) : Other::of(a.scalar(1, "other"))));
  return 1;
}
int l_zero_(lua_State* L) {
  Tensor& t = self(L);
  zero_recorded_(t);
  lua_settop(L, 1);
  return 1;
}
int requires_grad_(lua_State* L) {
  Tensor& t = self(L);
  Args a(L, 2, "requires_grad_");
  const bool rg = a.boolean(0, "requires_grad", true);  // nil is the default, as an absent argument
  a.finish(1);
  t.set_requires_grad(rg);
  lua_settop(L, 1);
  return 1;
}
int retain_grad(lua_State* L) {
  gl::retain_grad(self(L));
  return 0;
}
int backward(lua_State* L) {
  Args a(L, 2, "backward");
  Tensor& t = self(L);
  Tensor g;
  if (Tensor* gg = to_tensor(L, a.at(0, "gradient"))) {
    GL_CHECK(gg->sizes() == t.sizes(), "Mismatch in shape: grad_output[0] has a shape of ", size_repr(gg->sizes()),
             " and output[0] has a shape of ", size_repr(t.sizes()), ".");
    g = *gg;
  } else {
    GL_CHECK(t.requires_grad(), "element 0 of tensors does not require grad and does not have a grad_fn");
    GL_CHECK(t.numel() == 1, "grad can be implicitly created only for scalar outputs");
    g = ones(t.sizes(), {t.dtype(), t.device()});
  }
  const bool create_graph = a.boolean(2, "create_graph", false);
  HookScope hooks(L);  // gradient hooks run in this state (Note [Tensor hooks])
  run_backward(t, g, a.boolean(1, "retain_graph", create_graph), create_graph);  // retain_graph=None: create_graph
  return 0;
}
int equal(lua_State* L) {
  Tensor& a = self(L);
  lua_pushboolean(L, gl::equal(a, check_tensor(L, 2, "other")));
  return 1;
}
int allclose(lua_State* L) {
  Args a(L, 1, "allclose");
  Tensor& x = a.tensor(0, "input");
  Tensor& y = a.tensor(1, "other");
  lua_pushboolean(L,
                  gl::allclose(x, y, a.opt_number(2, "rtol").value_or(1e-5), a.opt_number(3, "atol").value_or(1e-8)));
  return 1;
}

// x:new_*(size, {dtype=, device=, requires_grad=}): x's dtype and device by default.
Tensor new_like(lua_State* L, Args& a, const Shape& size, const std::optional<Scalar>& fill) {
  Tensor& t = self(L);
  Tensor r = empty(size, {a.dtype(-1, "dtype").value_or(t.dtype()), a.device(-1, "device").value_or(t.device())});
  if (fill) fill_(r, *fill);
  if (a.boolean(-1, "requires_grad", false)) requires_grad_at_creation(r);
  return r;
}
int new_zeros(lua_State* L) {
  Args a(L, 2, "new_zeros");
  push_tensor(L, new_like(L, a, a.shape_from(0, "size"), Scalar::from_int(0)));
  return 1;
}
int new_ones(lua_State* L) {
  Args a(L, 2, "new_ones");
  push_tensor(L, new_like(L, a, a.shape_from(0, "size"), Scalar::from_int(1)));
  return 1;
}
int new_empty(lua_State* L) {
  Args a(L, 2, "new_empty");
  push_tensor(L, new_like(L, a, a.shape_from(0, "size"), std::nullopt));
  return 1;
}
int new_full(lua_State* L) {
  Args a(L, 2, "new_full");
  const Shape s = a.int_list(0, "size");
  push_tensor(L, new_like(L, a, s, a.scalar(1, "fill_value")));
  return 1;
}
int new_tensor(lua_State* L) {
  Args a(L, 2, "new_tensor");
  Tensor& t = self(L);
  GL_CHECK_T(TypeError, a.has(0), "new_tensor() missing 1 required positional argument: \"data\"");
  // dtype and device default to x's, as in PyTorch.
  Tensor r = tensor_from_lua(L, a.at(0), a.dtype(-1, "dtype").value_or(t.dtype()),
                             resolve_device(a.device(-1, "device").value_or(t.device())));
  const bool rg = a.boolean(-1, "requires_grad", false);
  a.finish(1);
  if (rg) requires_grad_at_creation(r);
  push_tensor(L, r);
  return 1;
}

}  // namespace

std::optional<DType> to_dtype_or_null(lua_State* L, int idx) {
  if (!idx || lua_type(L, idx) == LUA_TSTRING) {
    DType d;
    if (idx && dtype_from_name(lua_tostring(L, idx), &d)) return d;
    return std::nullopt;
  }
  return to_dtype(L, idx);
}

const Reg kTensorMethods[] = {
    {"size", size, "x:size() -> torch.Size; x:size(dim) -> int."},
    {"stride", stride, "x:stride() -> table of strides (in elements); x:stride(dim) -> int."},
    {"dim", dim, "x:dim() -> number of dimensions."},
    {"ndimension", dim, "alias of dim()."},
    {"numel", numel, "x:numel() -> number of elements."},
    {"nelement", numel, "alias of numel()."},
    {"element_size", element_size, "x:element_size() -> bytes per element."},
    {"is_contiguous", is_contiguous, "x:is_contiguous() -> whether memory is dense, row-major."},
    {"storage_offset", storage_offset, "x:storage_offset() -> where x starts in its storage, in elements."},
    {"data_ptr", data_ptr, "x:data_ptr() -> the address of x's first element (0 when it has no data)."},
    {"is_floating_point", is_floating_point, "x:is_floating_point()."},
    {"contiguous", l_contiguous, "x:contiguous(): x itself if dense, else a dense copy."},
    {"pin_memory", l_pin_memory,
     "x:pin_memory(): a copy of a CPU tensor in page-locked memory, which copies to and from a GPU at full speed."},
    {"is_pinned", l_is_pinned, "x:is_pinned() -> whether x is in pinned (page-locked) host memory."},
    {"clone", l_clone, "x:clone(): a copy (recorded by autograd)."},
    {"detach", l_detach, "x:detach(): the same data, cut from the autograd graph."},
    {"item", l_item, "x:item(): the value of a one-element tensor as a Lua number (waits for the device)."},
    {"tolist", tolist, "x:tolist(): nested Lua tables of the values (Lua arrays: 1-based)."},
    {"type", l_type, "x:type() -> 'torch.FloatTensor'; x:type(dtype or 'torch.IntTensor') -> converted tensor."},
    {"type_as", type_as, "x:type_as(other): x in other's dtype."},
    {"get_device", get_device, "x:get_device(): CUDA index, or -1 on the CPU."},
    {"copy_", l_copy_, "x:copy_(src): copy values (broadcasting, casting, across devices) into x."},
    {"fill_", l_fill_, "x:fill_(value)."},
    {"zero_", l_zero_, "x:zero_()."},
    {"where", where_method,
     "x:where(condition, other): x where condition, else other (torch.where(condition, x, other))."},
    // x:uniform_, x:normal_ and the other samplers: random_lib.cpp (kRandomMethods, with generator=)
    {"requires_grad_", requires_grad_, "x:requires_grad_(true): start recording operations on x."},
    {"retain_grad", retain_grad, "x:retain_grad()."},
    {"backward", backward,
     "y:backward(gradient=nil, retain_graph=false): accumulate gradients into the leaves' .grad."},
    {"equal", equal, "x:equal(other): same shape and values."},
    {"allclose", allclose, "x:allclose(other, rtol=1e-5, atol=1e-8)."},
    {"new_zeros", new_zeros, "x:new_zeros(size): zeros with x's dtype and device."},
    {"new_ones", new_ones, "x:new_ones(size)."},
    {"new_empty", new_empty, "x:new_empty(size)."},
    {"new_full", new_full, "x:new_full(size, value)."},
    {"new_tensor", new_tensor, "x:new_tensor(data)."},
    {nullptr, nullptr, nullptr}};

}  // namespace gl::lt
