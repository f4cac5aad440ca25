// Tensor methods that view or reshape: view/reshape (and _as), expand, t,
// transpose, permute, (un)squeeze, flatten, narrow, select, chunk, split,
// unbind; and the two that copy into a new shape, masked_select and repeat.
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"
#include "tensor/ops/ops.h"

namespace gl::lt {

namespace {

Tensor& self(lua_State* L) { return check_tensor(L, 1, "self"); }

int l_view(lua_State* L) {
  Args a(L, 2, "view");
  if (auto d = to_dtype_or_null(L, a.at(0))) {
    GL_CHECK(*d == self(L).dtype(), "gpulab: view(dtype) reinterpretation is not supported");
    push_tensor(L, self(L));
    return 1;
  }
  push_tensor(L, view(self(L), a.shape_from(0, "size")));
  return 1;
}
int l_reshape(lua_State* L) {
  Args a(L, 2, "reshape");
  push_tensor(L, reshape(self(L), a.shape_from(0, "shape")));
  return 1;
}
int view_as(lua_State* L) {
  push_tensor(L, view(self(L), check_tensor(L, 2, "other").sizes()));
  return 1;
}
int reshape_as(lua_State* L) {
  push_tensor(L, reshape(self(L), check_tensor(L, 2, "other").sizes()));
  return 1;
}
int l_expand(lua_State* L) {
  Args a(L, 2, "expand");
  push_tensor(L, expand(self(L), a.shape_from(0, "size")));
  return 1;
}
int expand_as(lua_State* L) {
  push_tensor(L, expand(self(L), check_tensor(L, 2, "other").sizes()));
  return 1;
}
int l_t(lua_State* L) {
  push_tensor(L, t(self(L)));
  return 1;
}
int l_transpose(lua_State* L) {
  Args a(L, 2, "transpose");
  push_tensor(L, transpose(self(L), a.integer(0, "dim0"), a.integer(1, "dim1")));
  return 1;
}
int l_permute(lua_State* L) {
  Args a(L, 2, "permute");
  // With no dims at all Python's argument parser refuses the call before
  // permute runs; an explicit empty table still reaches permute's own check.
  GL_CHECK_T(TypeError, a.at(0, "dims"), "permute() missing 1 required positional arguments: \"dims\"");
  push_tensor(L, permute(self(L), a.shape_from(0, "dims")));
  return 1;
}
int l_unsqueeze(lua_State* L) {
  Args a(L, 2, "unsqueeze");
  push_tensor(L, unsqueeze(self(L), a.integer(0, "dim")));
  return 1;
}
int l_squeeze(lua_State* L) {
  Args a(L, 2, "squeeze");
  push_tensor(L, squeeze(self(L), a.opt_integer(0, "dim")));
  return 1;
}
int l_flatten(lua_State* L) {
  Args a(L, 2, "flatten");
  push_tensor(L, flatten(self(L), a.opt_integer(0, "start_dim").value_or(0), a.opt_integer(1, "end_dim").value_or(-1)));
  return 1;
}
int l_narrow(lua_State* L) {
  Args a(L, 2, "narrow");
  push_tensor(L, narrow(self(L), a.integer(0, "dim"), a.integer(1, "start"), a.integer(2, "length")));
  return 1;
}
int l_select(lua_State* L) {
  Args a(L, 2, "select");
  push_tensor(L, select(self(L), a.integer(0, "dim"), a.integer(1, "index")));
  return 1;
}

int l_chunk(lua_State* L) {
  Args a(L, 2, "chunk");
  return push_tensor_tuple(L, chunk(self(L), a.integer(0, "chunks"), a.opt_integer(1, "dim").value_or(0)));
}
int l_split(lua_State* L) {
  Args a(L, 2, "split");
  int idx = a.at(0, "split_size_or_sections");
  int64_t dim = a.opt_integer(1, "dim").value_or(0);
  if (idx && lua_type(L, idx) == LUA_TTABLE)
    return push_tensor_tuple(L, split_sizes(self(L), a.int_list(0, "split_size_or_sections"), dim));
  return push_tensor_tuple(L, split(self(L), a.integer(0, "split_size_or_sections"), dim));
}
int unbind(lua_State* L) {
  Args a(L, 2, "unbind");
  return push_tensor_tuple(L, gl::unbind(self(L), a.opt_integer(0, "dim").value_or(0)));
}
int l_masked_select(lua_State* L) {
  push_tensor(L, masked_select(self(L), check_tensor(L, 2, "mask")));
  return 1;
}
int repeat(lua_State* L) {
  Args a(L, 2, "repeat");
  Shape reps = a.shape_from(0, "repeats");
  push_tensor(L, gl::repeat(self(L), reps));
  return 1;
}

}  // namespace

const Reg kTensorViewMethods[] = {
    {"view", l_view, "x:view(2, 3) or x:view{2, -1}: same data, new shape (needs compatible strides)."},
    {"reshape", l_reshape, "x:reshape(...): like view, copying when it must."},
    {"view_as", view_as, "x:view_as(other)."},
    {"reshape_as", reshape_as, "x:reshape_as(other)."},
    {"expand", l_expand, "x:expand(...): broadcast size-1 dims without copying (-1 keeps a size)."},
    {"expand_as", expand_as, "x:expand_as(other)."},
    {"t", l_t, "x:t(): transpose of a matrix."},
    {"transpose", l_transpose, "x:transpose(dim0, dim1): swap two dims."},
    {"permute", l_permute, "x:permute(dims...): reorder dims."},
    {"unsqueeze", l_unsqueeze, "x:unsqueeze(dim): insert a size-1 dim."},
    {"squeeze", l_squeeze, "x:squeeze(), x:squeeze(dim): drop size-1 dims."},
    {"flatten", l_flatten, "x:flatten(start_dim=0, end_dim=-1)."},
    {"narrow", l_narrow, "x:narrow(dim, start, length): a view of a range."},
    {"select", l_select, "x:select(dim, index): a view with dim removed."},
    {"chunk", l_chunk, "x:chunk(chunks, dim=0) -> table of views."},
    {"split", l_split, "x:split(size_or_sizes, dim=0) -> table of views."},
    {"unbind", unbind, "x:unbind(dim=0) -> table of slices."},
    {"masked_select", l_masked_select, "x:masked_select(mask) -> 1-d tensor."},
    {"repeat", repeat, "x:repeat(reps...): tile."},
    {nullptr, nullptr, nullptr}};

}  // namespace gl::lt
