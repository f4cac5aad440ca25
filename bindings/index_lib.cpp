// Index ops (tensor/ops/index_ops.h) as torch functions and tensor methods:
// gather, scatter(_), scatter_add(_), index_add(_), index_put(_), take,
// nonzero; and the bytes of a tensor (tobytes, torch.frombuffer).
#include <cstring>
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "tensor/core/error.h"
#include "tensor/ops/index_ops.h"
#include "tensor/ops/ops.h"

namespace gl::lt {

namespace {

int gather_fn(lua_State* L) {
  Args a(L, 1, "gather");
  Tensor& t = a.tensor(0, "input");
  const int64_t dim = a.integer(1, "dim");
  push_tensor(L, gather(t, dim, a.tensor(2, "index")));
  return 1;
}

// scatter(input, dim, index, src | value, *, reduce=None), and its in-place form.
template <bool InPlace> int scatter_fn(lua_State* L) {
  const char* name = InPlace ? "scatter_" : "scatter";
  Args a(L, 1, name);
  Tensor& t = a.tensor(0, InPlace ? "self" : "input");
  const int64_t dim = a.integer(1, "dim");
  Tensor& index = a.tensor(2, "index");
  std::string reduce = a.string(-1, "reduce", "");
  int iv = a.at(3, "src");
  const bool is_src = iv != 0;
  if (!iv) iv = a.at(3, "value");
  GL_CHECK_T(TypeError, iv != 0, name, "() missing 1 required positional argument: \"src\" or \"value\"");
  if (Tensor* src = to_tensor(L, iv)) {
    if (InPlace) scatter_(t, dim, index, *src, reduce);
    else push_tensor(L, scatter(t, dim, index, *src, reduce));
  } else {
    GL_CHECK_T(TypeError, !is_src || to_scalar(L, iv), name, "(): argument 'src' must be Tensor, not ",
               type_name(L, iv));
    Scalar v = a.scalar(3, is_src ? "src" : "value");
    if (InPlace) scatter_(t, dim, index, v, reduce);
    else push_tensor(L, scatter(t, dim, index, v, reduce));
  }
  if (InPlace) lua_settop(L, 1);
  return 1;
}

template <bool InPlace> int scatter_add_fn(lua_State* L) {
  Args a(L, 1, InPlace ? "scatter_add_" : "scatter_add");
  Tensor& t = a.tensor(0, InPlace ? "self" : "input");
  const int64_t dim = a.integer(1, "dim");
  Tensor& index = a.tensor(2, "index");
  Tensor& src = a.tensor(3, "src");
  if (InPlace) {
    scatter_add_(t, dim, index, src);
    lua_settop(L, 1);
  } else {
    push_tensor(L, scatter_add(t, dim, index, src));
  }
  return 1;
}

template <bool InPlace> int index_add_fn(lua_State* L) {
  Args a(L, 1, InPlace ? "index_add_" : "index_add");
  Tensor& t = a.tensor(0, InPlace ? "self" : "input");
  const int64_t dim = a.integer(1, "dim");
  Tensor& index = a.tensor(2, "index");
  Tensor& source = a.tensor(3, "source");
  Scalar alpha = a.has(-1, "alpha") ? a.scalar(-1, "alpha") : Scalar::from_int(1);
  if (InPlace) {
    index_add_(t, dim, index, source, alpha);
    lua_settop(L, 1);
  } else {
    push_tensor(L, index_add(t, dim, index, source, alpha));
  }
  return 1;
}

// The `indices` argument: a table of tensors (nil holes take a whole dim).
std::vector<Tensor> index_list(Args& a, int i) {
  const int idx = a.at(i, "indices");
  lua_State* L = a.L;
  GL_CHECK_T(TypeError, idx && lua_type(L, idx) == LUA_TTABLE, a.fname,
             "(): argument 'indices' must be tuple of Tensors, not ", type_name(L, idx));
  std::vector<Tensor> r;
  const int n = int(lua_rawlen(L, idx));
  for (int k = 1; k <= n; ++k) {
    lua_rawgeti(L, idx, k);
    Tensor* t = to_tensor(L, -1);
    const bool ok = t || lua_isnil(L, -1);
    std::string got = ok ? "" : type_name(L, -1);
    lua_pop(L, 1);
    GL_CHECK_T(TypeError, ok, a.fname, "(): argument 'indices' must be tuple of Tensors, not ", got);
    r.push_back(t ? *t : Tensor());
  }
  return r;
}

template <bool InPlace> int index_put_fn(lua_State* L) {
  Args a(L, 1, InPlace ? "index_put_" : "index_put");
  Tensor& t = a.tensor(0, InPlace ? "self" : "input");
  std::vector<Tensor> indices = index_list(a, 1);
  Tensor& values = a.tensor(2, "values");
  const bool acc = a.boolean(3, "accumulate", false);
  if (InPlace) {
    index_put_(t, indices, values, acc);
    lua_settop(L, 1);
  } else {
    push_tensor(L, index_put(t, indices, values, acc));
  }
  return 1;
}

int take_fn(lua_State* L) {
  Args a(L, 1, "take");
  Tensor& t = a.tensor(0, "input");
  push_tensor(L, take(t, a.tensor(1, "index")));
  return 1;
}

int nonzero_fn(lua_State* L) {
  Args a(L, 1, "nonzero");
  Tensor& t = a.tensor(0, "input");
  if (a.boolean(-1, "as_tuple", false)) return push_tensor_tuple(L, nonzero_tuple(t));
  push_tensor(L, nonzero(t));
  return 1;
}

// ---- bytes ----

int tobytes(lua_State* L) {
  Tensor& t = check_tensor(L, 1, "self");
  Args a(L, 2, "tobytes");
  a.finish(0);
  std::vector<char> b = to_host_bytes(t);
  lua_pushlstring(L, b.data(), b.size());
  return 1;
}

int frombuffer(lua_State* L) {
  Args a(L, 1, "frombuffer");
  const int ib = a.at(0, "buffer");
  GL_CHECK_T(TypeError, ib && lua_type(L, ib) == LUA_TSTRING,
             "frombuffer(): argument 'buffer' must be a string of bytes, not ", type_name(L, ib));
  size_t len = 0;
  const char* s = lua_tolstring(L, ib, &len);
  const auto odt = a.dtype(-1, "dtype");
  GL_CHECK_T(TypeError, odt, "frombuffer() missing 1 required positional arguments: \"dtype\"");
  const DType dt = *odt;
  const int64_t count = a.opt_integer(-1, "count").value_or(-1);
  const int64_t offset = a.opt_integer(-1, "offset").value_or(0);
  const bool rg = a.boolean(-1, "requires_grad", false);
  const int64_t isz = int64_t(itemsize(dt)), n = int64_t(len);
  GL_CHECK_T(ValueError, offset >= 0 && offset < n, "offset (", offset,
             " bytes) must be non-negative and no greater than buffer length (", n, " bytes) minus 1");
  GL_CHECK_T(ValueError, count > 0 || count == -1, "count must be positive or -1, got ", count);
  GL_CHECK_T(ValueError, count != -1 || (n - offset) % isz == 0, "buffer length (", n - offset,
             " bytes) after offset (", offset, " bytes) must be a multiple of element size (", isz, ")");
  const int64_t elems = count == -1 ? (n - offset) / isz : count;
  GL_CHECK_T(ValueError, elems <= (n - offset) / isz, "requested buffer length (", elems, " * ", isz,
             " bytes) after offset (", offset, " bytes) must not be greater than actual buffer length (", n, " bytes)");
  Tensor t = from_host(s + offset, {elems}, dt, {dt, Device(Device::CPU)});
  if (rg) requires_grad_at_creation(t);
  push_tensor(L, t);
  return 1;
}

}  // namespace

const Reg kIndexFunctions[] = {
    {"gather", gather_fn, "torch.gather(input, dim, index): out[i][j] = input[index[i][j]][j] (dim 0), and so on."},
    {"scatter", scatter_fn<false>,
     "torch.scatter(input, dim, index, src | value, {reduce=}): a copy of input with src written at index."},
    {"scatter_add", scatter_add_fn<false>,
     "torch.scatter_add(input, dim, index, src): a copy of input with src added at index."},
    {"index_add", index_add_fn<false>,
     "torch.index_add(input, dim, index, source, {alpha=1}): source's slices added at index along dim."},
    {"index_put", index_put_fn<false>,
     "torch.index_put(input, indices, values, accumulate=false): x[indices] = values, out of place."},
    {"take", take_fn, "torch.take(input, index): elements of input as if flattened, at index."},
    {"nonzero", nonzero_fn, "torch.nonzero(input, {as_tuple=false}): the indices of non-zero elements, one row each."},
    {"frombuffer", frombuffer,
     "torch.frombuffer(bytes, {dtype=, count=-1, offset=0}): a 1-d CPU tensor of the bytes of a Lua string."},
    {nullptr, nullptr, nullptr}};

const Reg kIndexMethods[] = {
    {"gather", gather_fn, "x:gather(dim, index)."},
    {"scatter", scatter_fn<false>, "x:scatter(dim, index, src | value, {reduce=})."},
    {"scatter_", scatter_fn<true>, "x:scatter_(dim, index, src | value, {reduce=}): in place."},
    {"scatter_add", scatter_add_fn<false>, "x:scatter_add(dim, index, src)."},
    {"scatter_add_", scatter_add_fn<true>, "x:scatter_add_(dim, index, src): in place."},
    {"index_add", index_add_fn<false>, "x:index_add(dim, index, source, {alpha=1})."},
    {"index_add_", index_add_fn<true>, "x:index_add_(dim, index, source, {alpha=1}): in place."},
    {"index_put", index_put_fn<false>, "x:index_put(indices, values, accumulate=false)."},
    {"index_put_", index_put_fn<true>, "x:index_put_(indices, values, accumulate=false): x[indices] = values."},
    {"take", take_fn, "x:take(index)."},
    {"nonzero", nonzero_fn, "x:nonzero({as_tuple=false})."},
    {"tobytes", tobytes,
     "x:tobytes(): the raw bytes of x (contiguous, host byte order) as a Lua string; torch.frombuffer reads them back."},
    {nullptr, nullptr, nullptr}};

}  // namespace gl::lt
