// Bound flip, fliplr, flipud, roll, tile, unfold and torch.embedding
// (tensor/ops/shape_extras.h). As methods flip and tile take their dims as
// varargs or one table (x:flip(0, 1), x:flip{0, 1}); as torch functions,
// as PyTorch's, one table only (torch.flip(x, {0, 1})).
#include "bindings/args.h"
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/core/error.h"
#include "tensor/ops/shape_extras.h"

namespace gl::lt {

namespace {

// The dims of a method (varargs or one table, from `first` on); an ending {}
// reads as the options table and means no dims.
std::vector<int64_t> method_dims(Args& a, int first, const char* name) {
  if (!a.has(first, name) && !a.empty_options())
    throw TypeError(cat(a.fname, "() missing 1 required positional arguments: \"", name, "\""));
  return a.shape_from(first, name);
}

// The dims of a torch function: one table (an int is PyTorch's TypeError).
std::vector<int64_t> function_dims(Args& a, int i, const char* name) {
  const int idx = a.at(i, name);
  if (!idx) {
    if (a.empty_options()) return {};
    throw TypeError(cat(a.fname, "() missing 1 required positional arguments: \"", name, "\""));
  }
  if (lua_type(a.L, idx) != LUA_TTABLE && !lua_isuserdata(a.L, idx))
    type_error(a.fname, name, "tuple of ints", type_name(a.L, idx));
  return a.shape_from(i, name);
}

int flip_method(lua_State* L) {
  Args a(L, 2, "flip");
  push_tensor(L, flip(check_tensor(L, 1, "self"), method_dims(a, 0, "dims")));
  return 1;
}
int flip_function(lua_State* L) {
  Args a(L, 1, "flip");
  Tensor& x = a.tensor(0, "input");
  std::vector<int64_t> dims = function_dims(a, 1, "dims");
  a.finish(2);
  push_tensor(L, flip(x, dims));
  return 1;
}
int l_fliplr(lua_State* L) {
  Args a(L, 1, "fliplr");
  Tensor& x = a.tensor(0, "input");
  a.finish(1);
  push_tensor(L, fliplr(x));
  return 1;
}
int l_flipud(lua_State* L) {
  Args a(L, 1, "flipud");
  Tensor& x = a.tensor(0, "input");
  a.finish(1);
  push_tensor(L, flipud(x));
  return 1;
}
int l_roll(lua_State* L) {
  Args a(L, 1, "roll");
  Tensor& x = a.tensor(0, "input");
  GL_CHECK_T(TypeError, a.has(1, "shifts"), "roll() missing 1 required positional arguments: \"shifts\"");
  std::vector<int64_t> shifts = a.int_list(1, "shifts"), dims = a.int_list(2, "dims");
  a.finish(3);
  push_tensor(L, roll(x, shifts, dims));
  return 1;
}
int tile_method(lua_State* L) {
  Args a(L, 2, "tile");
  push_tensor(L, tile(check_tensor(L, 1, "self"), method_dims(a, 0, "dims")));
  return 1;
}
int tile_function(lua_State* L) {
  Args a(L, 1, "tile");
  Tensor& x = a.tensor(0, "input");
  std::vector<int64_t> dims = function_dims(a, 1, "dims");
  a.finish(2);
  push_tensor(L, tile(x, dims));
  return 1;
}
int l_unfold(lua_State* L) {
  Args a(L, 2, "unfold");
  const int64_t dimension = a.integer(0, "dimension"), size = a.integer(1, "size"), step = a.integer(2, "step");
  a.finish(3);
  push_tensor(L, unfold(check_tensor(L, 1, "self"), dimension, size, step));
  return 1;
}
// torch.embedding(weight, indices, padding_idx=-1, ...): F.embedding's op
// (bindings/lua/13_nn_embedding.lua checks padding_idx first); -1: none.
int l_embedding(lua_State* L) {
  Args a(L, 1, "embedding");
  Tensor& weight = a.tensor(0, "weight");
  Tensor& indices = a.tensor(1, "indices");
  const int64_t padding_idx = a.opt_integer(2, "padding_idx").value_or(-1);
  GL_CHECK_T(NotImplementedError, !a.boolean(3, "scale_grad_by_freq", false),
             "gpulab: embedding's scale_grad_by_freq=true is not supported");
  GL_CHECK_T(NotImplementedError, !a.boolean(4, "sparse", false), "gpulab: sparse gradients are not supported");
  a.finish(5);
  push_tensor(L, embedding(indices, weight, padding_idx >= 0 ? std::optional<int64_t>(padding_idx) : std::nullopt));
  return 1;
}

}  // namespace

const Reg kShapeExtraMethods[] = {
    {"flip", flip_method, "x:flip(dims...): the entries in reverse order along each of dims."},
    {"fliplr", l_fliplr, "x:fliplr(): flip(1), the columns of a matrix right to left."},
    {"flipud", l_flipud, "x:flipud(): flip(0), the rows upside down."},
    {"roll", l_roll, "x:roll(shifts, dims=nil): entries moved shifts places along dims, wrapping around."},
    {"tile", tile_method, "x:tile(dims...): x repeated dims[d] times along each dim (dims padded with leading 1s)."},
    {"unfold", l_unfold, "x:unfold(dimension, size, step): a view of every window of size entries, step apart."},
    {nullptr, nullptr, nullptr}};

const Reg kShapeExtraFunctions[] = {
    {"flip", flip_function, "torch.flip(input, dims): the entries in reverse order along each of dims (a table)."},
    {"fliplr", l_fliplr, "torch.fliplr(input): flip(input, {1})."},
    {"flipud", l_flipud, "torch.flipud(input): flip(input, {0})."},
    {"roll", l_roll, "torch.roll(input, shifts, dims=nil): entries moved shifts places along dims, wrapping around."},
    {"tile", tile_function, "torch.tile(input, dims): input repeated dims[d] times along each dim."},
    {"embedding", l_embedding, "torch.embedding(weight, indices, padding_idx=-1): F.embedding's op."},
    {nullptr, nullptr, nullptr}};

extern const char* const kShapeExtraSignatures[][2];
const char* const kShapeExtraSignatures[][2] = {
    {"flip", "flip(input, *dims)"},
    {"fliplr", "fliplr(input)"},
    {"flipud", "flipud(input)"},
    {"roll", "roll(input, shifts, dims=None)"},
    {"tile", "tile(input, *dims)"},
    {"unfold", "unfold(self, dimension, size, step)"},
    {"embedding", "embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False)"},
    {nullptr, nullptr}};

}  // namespace gl::lt
