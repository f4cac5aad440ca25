// Advanced indexing keys: x[i], x[{i, j}], x[{':', i}], x[{i, '...'}] with
// index tensors (long, int or bool), read and assigned. The key becomes slices
// applied as views, then one index/index_put_ call (tensor/ops/index_adv.cpp).
// An integer next to a tensor selects first (basic indexing), as in PyTorch.
#include <string>
#include "bindings/luaT.h"
#include "bindings/tensor_data.h"
#include "tensor/core/error.h"
#include "tensor/ops/index_ops.h"
#include "tensor/ops/ops.h"

namespace gl::lt {

namespace {

bool is_index_tensor(const Tensor* t) {
  if (!t) return false;
  const DType d = t->dtype();
  return d == DType::Int64 || d == DType::Int32 || (d == DType::Bool && t->dim() > 0);
}

// Whether `key` is a table with at least one index tensor among its items.
bool table_has_tensor(lua_State* L, int key) {
  if (lua_type(L, key) != LUA_TTABLE) return false;
  const int n = int(lua_rawlen(L, key));
  bool found = false;
  for (int k = 1; k <= n && !found; ++k) {
    lua_rawgeti(L, key, k);
    found = to_tensor(L, -1) != nullptr;
    lua_pop(L, 1);
  }
  return found;
}

std::optional<int64_t> slice_part(const std::string& s) {
  size_t a = s.find_first_not_of(' '), b = s.find_last_not_of(' ');
  if (a == std::string::npos) return std::nullopt;
  std::string t = s.substr(a, b - a + 1);
  size_t used = 0;
  int64_t v = 0;
  try {
    v = std::stoll(t, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  GL_CHECK_T(IndexError, used == t.size() && !t.empty(), "invalid index '", s, "'");
  return v;
}

// The view of t the key's slices select, and one index entry per dim of it.
Tensor parse(lua_State* L, const Tensor& t, int key, std::vector<Tensor>& idx) {
  if (Tensor* k = to_tensor(L, key)) {
    idx.push_back(*k);
    return t;
  }
  const int n = int(lua_rawlen(L, key));
  int consumed = 0;
  for (int k = 1; k <= n; ++k) {
    lua_rawgeti(L, key, k);
    if (Tensor* x = to_tensor(L, -1)) consumed += x->dtype() == DType::Bool ? int(std::max<int64_t>(x->dim(), 1)) : 1;
    else if (!(lua_type(L, -1) == LUA_TSTRING && std::string(lua_tostring(L, -1)) == "...")) ++consumed;
    lua_pop(L, 1);
  }
  GL_CHECK_T(IndexError, consumed <= t.dim(), "too many indices for tensor of dimension ", t.dim());
  Tensor view = t;
  int64_t dim = 0;
  for (int k = 1; k <= n; ++k) {
    lua_rawgeti(L, key, k);
    if (Tensor* x = to_tensor(L, -1)) {
      idx.push_back(*x);
      dim += x->dtype() == DType::Bool ? std::max<int64_t>(x->dim(), 1) : 1;  // a mask covers its dims
    } else if (lua_isinteger(L, -1)) {  // basic indexing, as PyTorch: x[1, :, i] selects first
      const int64_t i = lua_tointeger(L, -1), size = view.size(dim);
      GL_CHECK_T(IndexError, i >= -size && i < size, "index ", i, " is out of bounds for dimension ", dim, " with size ", size);
      view = select(view, dim, i);
    } else if (lua_type(L, -1) == LUA_TSTRING) {
      const std::string s = lua_tostring(L, -1);
      if (s == "...") {
        for (int64_t e = 0; e < t.dim() - consumed; ++e, ++dim) idx.push_back(Tensor());
      } else {
        const size_t c1 = s.find(':');
        GL_CHECK_T(IndexError, c1 != std::string::npos,
                   "gpulab: with index tensors, the other items must be integers, slices like ':' or '1:3', or '...'");
        const size_t c2 = s.find(':', c1 + 1);
        auto start = slice_part(s.substr(0, c1));
        auto stop = slice_part(s.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1));
        int64_t step = 1;
        if (c2 != std::string::npos) step = slice_part(s.substr(c2 + 1)).value_or(1);
        GL_CHECK_T(ValueError, step != 0, "slice step cannot be zero");
        view = slice(view, dim, start, stop, step);
        idx.push_back(Tensor());
        ++dim;
      }
    } else {
      std::string got = type_name(L, -1);
      lua_pop(L, 1);
      throw IndexError(cat("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got ",
                           got, ")"));
    }
    lua_pop(L, 1);
  }
  return view;
}

}  // namespace

bool push_advanced_index(lua_State* L, const Tensor& t, int key) {
  if (!is_index_tensor(to_tensor(L, key)) && !table_has_tensor(L, key)) return false;
  std::vector<Tensor> idx;
  Tensor view = parse(L, t, key, idx);
  push_tensor(L, index(view, idx));
  return true;
}

bool assign_advanced_index(lua_State* L, Tensor& t, int key, int value) {
  if (!is_index_tensor(to_tensor(L, key)) && !table_has_tensor(L, key)) return false;
  Tensor* k = to_tensor(L, key);
  if (k && k->dtype() == DType::Bool) return false;  // masks keep their own path (masked_assign_)
  std::vector<Tensor> idx;
  Tensor view = parse(L, t, key, idx);
  Tensor v;
  if (Tensor* vt = to_tensor(L, value)) {
    Shape vs = vt->sizes();  // setitem drops the value's leading 1s, then casts it to x's dtype
    while (!vs.empty() && vs.front() == 1) vs.erase(vs.begin());
    v = to(reshape(*vt, vs), t.device(), t.dtype());
  } else if (auto s = to_scalar(L, value)) {
    v = empty_on({}, t.dtype(), t.device());
    fill_(v, *s);
  } else {
    throw TypeError(cat("can't assign a ", type_name(L, value), " to a ", dtype_repr(t.dtype()), " tensor"));
  }
  if (view.is_same(t)) {  // t itself: drop the second reference so autograd can record it
    view = Tensor();
    index_put_(t, idx, v, false);
  } else {
    index_put_(view, idx, v, false);
  }
  return true;
}

}  // namespace gl::lt
