// Indexing: x[0], x[-1], x[':, 1'], x['1:3, ...'], x[{0, ':'}], x[mask],
// x[index_tensor], and assignment through the same keys. Integers count from
// 0 and slices use Python's start:stop:step, so PyTorch code reads the same.
#include <cctype>
#include "bindings/luaT.h"
#include "bindings/tensor_data.h"
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"

namespace gl::lt {

namespace {

struct Item {
  enum Kind { Int, Slice, Ellipsis, NewAxis } kind = Int;
  int64_t i = 0;
  std::optional<int64_t> start, stop;
  int64_t step = 1;
};

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::optional<int64_t> parse_int(const std::string& s, const std::string& whole) {
  std::string t = trim(s);
  if (t.empty()) return std::nullopt;
  size_t k = (t[0] == '-' || t[0] == '+') ? 1 : 0;
  if (k == t.size()) throw IndexError(cat("invalid index '", whole, "'"));
  for (size_t j = k; j < t.size(); ++j)
    if (!std::isdigit((unsigned char)t[j])) throw IndexError(cat("invalid index '", whole, "': '", t, "' is not an integer"));
  if (t.size() > 18) throw IndexError(cat("index ", t, " is out of range"));
  return std::stoll(t);
}

Item parse_item(const std::string& raw) {
  std::string s = trim(raw);
  Item it;
  if (s == "...") { it.kind = Item::Ellipsis; return it; }
  if (s == "None" || s == "nil") { it.kind = Item::NewAxis; return it; }
  size_t c1 = s.find(':');
  if (c1 == std::string::npos) {
    auto v = parse_int(s, raw);
    if (!v) throw IndexError(cat("invalid index '", raw, "'"));
    it.i = *v;
    return it;
  }
  it.kind = Item::Slice;
  size_t c2 = s.find(':', c1 + 1);
  it.start = parse_int(s.substr(0, c1), raw);
  it.stop = parse_int(s.substr(c1 + 1, c2 == std::string::npos ? std::string::npos : c2 - c1 - 1), raw);
  if (c2 != std::string::npos) {
    if (s.find(':', c2 + 1) != std::string::npos) throw IndexError(cat("invalid index '", raw, "'"));
    auto st = parse_int(s.substr(c2 + 1), raw);
    it.step = st ? *st : 1;
  }
  return it;
}

void parse_string(const std::string& s, std::vector<Item>& out) {
  size_t pos = 0;
  while (true) {
    size_t comma = s.find(',', pos);
    out.push_back(parse_item(s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos)));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
}

std::vector<Item> parse_key(lua_State* L, int key) {
  std::vector<Item> items;
  if (lua_isinteger(L, key)) {
    items.push_back(Item{Item::Int, lua_tointeger(L, key)});
  } else if (lua_type(L, key) == LUA_TSTRING) {
    parse_string(lua_tostring(L, key), items);
  } else if (lua_type(L, key) == LUA_TTABLE) {
    const int n = int(lua_rawlen(L, key));
    for (int k = 1; k <= n; ++k) {
      lua_rawgeti(L, key, k);
      if (lua_isinteger(L, -1)) items.push_back(Item{Item::Int, lua_tointeger(L, -1)});
      else if (lua_type(L, -1) == LUA_TSTRING) items.push_back(parse_item(lua_tostring(L, -1)));
      else {
        std::string got = type_name(L, -1);
        lua_pop(L, 1);
        throw IndexError(cat("only integers, slices like ':' or '1:3', '...' and 'None' are valid indices (got ", got, ")"));
      }
      lua_pop(L, 1);
    }
  } else if (lua_type(L, key) == LUA_TNUMBER) {
    throw IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got float)");
  } else {
    throw IndexError(cat("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got ",
                         type_name(L, key), ")"));
  }
  return items;
}

Tensor apply_items(const Tensor& t, const std::vector<Item>& items) {
  int64_t consumed = 0, ellipses = 0;
  for (auto& it : items) {
    if (it.kind == Item::Int || it.kind == Item::Slice) ++consumed;
    if (it.kind == Item::Ellipsis) ++ellipses;
  }
  GL_CHECK_T(IndexError, ellipses <= 1, "an index can only have a single ellipsis ('...')");
  GL_CHECK_T(IndexError, consumed <= t.dim(), "too many indices for tensor of dimension ", t.dim());
  Tensor r = t;
  int64_t dim = 0;
  for (auto& it : items) {
    switch (it.kind) {
      case Item::Int: r = select(r, dim, it.i); break;
      case Item::Slice: r = slice(r, dim, it.start, it.stop, it.step); ++dim; break;
      case Item::NewAxis: r = unsqueeze(r, dim); ++dim; break;
      case Item::Ellipsis: dim += t.dim() - consumed; break;
    }
  }
  // Python indexing always returns a new tensor object, even for x[...].
  if (r.is_same(t)) r = make_view(t, t.sizes(), t.strides(), t.offset()), r.impl->requires_grad = false;
  return r;
}

}  // namespace

void push_index(lua_State* L, const Tensor& t, int key) {
  if (Tensor* k = to_tensor(L, key)) {
    if (k->dtype() == DType::Bool) return push_tensor(L, masked_select(t, *k));
    GL_CHECK_T(IndexError, !is_floating(k->dtype()), "tensors used as indices must be long, int, byte or bool tensors");
    return push_tensor(L, index_select(t, 0, reshape(*k, {-1})));
  }
  push_tensor(L, apply_items(t, parse_key(L, key)));
}

void assign_index(lua_State* L, Tensor& t, int key, int value) {
  if (GradMode::enabled() && t.requires_grad())
    throw RuntimeError(t.is_leaf() ? "a leaf Variable that requires grad is being used in an in-place operation."
                                   : "gpulab does not record in-place assignment into tensors that require grad");
  Tensor* vt = to_tensor(L, value);
  auto vs = to_scalar(L, value);
  if (!vt && !vs)
    throw TypeError(cat("can't assign a ", type_name(L, value), " to a ", dtype_repr(t.dtype()), " tensor"));
  if (Tensor* k = to_tensor(L, key); k && k->dtype() == DType::Bool) {
    Tensor v = vt ? to(*vt, t.device(), t.dtype()) : scalar_tensor(*vs, t.dtype(), t.device());
    Tensor r = where(*k, v, t);
    copy_(t, r);
    return;
  }
  GL_CHECK_T(IndexError, !to_tensor(L, key), "gpulab: assignment through an index tensor is not supported; use a mask");
  Tensor view = apply_items(t, parse_key(L, key));
  if (vt) copy_(view, *vt);
  else fill_(view, *vs);
}

}  // namespace gl::lt
