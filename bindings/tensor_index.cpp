// Indexing: x[0], x[-1], x[':, 1'], x['1:3, ...'], x[{0, ':'}], x[mask],
// x[index_tensor], and assignment through the same keys. Integers count from
// 0 and slices use Python's start:stop:step, so PyTorch code reads the same.
#include <cctype>
#include <cstdio>
#include <set>
#include <string>
#include "bindings/luaT.h"
#include "bindings/tensor_data.h"
#include "tensor/autograd/node.h"
#include "tensor/core/error.h"
#include "tensor/ops/composite.h"
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
    GL_CHECK_T(ValueError, it.step != 0, "slice step cannot be zero");
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
    items.push_back(Item{Item::Int, lua_tointeger(L, key), {}, {}, 1});
  } else if (lua_type(L, key) == LUA_TSTRING) {
    parse_string(lua_tostring(L, key), items);
  } else if (lua_type(L, key) == LUA_TTABLE) {
    const int n = int(lua_rawlen(L, key));
    for (int k = 1; k <= n; ++k) {
      lua_rawgeti(L, key, k);
      if (lua_isinteger(L, -1)) items.push_back(Item{Item::Int, lua_tointeger(L, -1), {}, {}, 1});
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
  GL_CHECK_T(IndexError, t.dim() > 0 || consumed == 0,
             "invalid index of a 0-dim tensor. Use `tensor:item()` to convert a 0-dim tensor to a number");
  GL_CHECK_T(IndexError, ellipses <= 1, "an index can only have a single ellipsis ('...')");
  GL_CHECK_T(IndexError, consumed <= t.dim(), "too many indices for tensor of dimension ", t.dim());
  Tensor r = t;
  int64_t dim = 0, orig = 0;  // dim in r, and the dim of t it came from (for errors)
  for (auto& it : items) {
    switch (it.kind) {
      case Item::Int: {
        const int64_t n = r.size(dim);
        GL_CHECK_T(IndexError, it.i >= -n && it.i < n, "index ", it.i, " is out of bounds for dimension ", orig, " with size ", n);
        r = select(r, dim, it.i);
        ++orig;
        break;
      }
      case Item::Slice: r = slice(r, dim, it.start, it.stop, it.step); ++dim; ++orig; break;
      case Item::NewAxis: r = unsqueeze(r, dim); ++dim; break;
      case Item::Ellipsis: dim += t.dim() - consumed; orig += t.dim() - consumed; break;
    }
  }
  // Python indexing always returns a new tensor object, even for x[...].
  if (r.is_same(t)) r = make_view(t, t.sizes(), t.strides(), t.offset()), r.impl->requires_grad = false;
  return r;
}

// A bool mask indexes the leading mask.dim() dims of t; its shape must match
// them (PyTorch's rule). Returns the mask with size-1 dims for the rest of t.
Tensor leading_mask(const Tensor& t, const Tensor& mask) {
  for (int64_t d = 0; d < mask.dim(); ++d)
    if (d >= t.dim() || mask.size(d) != t.size(d))
      throw IndexError(cat("The shape of the mask ", shape_str(mask.sizes()), " at index ", d,
                           " does not match the shape of the indexed tensor ", shape_str(t.sizes()), " at index ", d));
  Tensor m = mask;
  while (m.dim() < t.dim()) m = unsqueeze(m, m.dim());
  return m;
}

// PyTorch still takes a uint8 index tensor as a mask (nonzero = true) but warns
// that this is deprecated. Python's default warning filter shows a warning
// once per call site, so the Lua line that indexed stands in for Python's
// file:line; the text goes to stderr, as gpulab's other warnings do, to leave
// stdout as PyTorch's.
void warn_uint8_index(lua_State* L) {
  static std::set<std::string> seen;
  luaL_where(L, 1);
  std::string site = lua_tostring(L, -1);
  lua_pop(L, 1);
  if (!seen.insert(site).second) return;
  std::fputs("UserWarning: indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.\n", stderr);
  std::fflush(stderr);
}

// The bool mask a uint8 index stands for. A 0-d one is a plain condition in
// PyTorch (it never reaches the deprecated mask path), so it does not warn.
Tensor uint8_mask(lua_State* L, const Tensor& k) {
  if (k.dim() > 0) warn_uint8_index(L);
  return to_dtype(k, DType::Bool);
}

}  // namespace

void push_index(lua_State* L, const Tensor& t, int key) {
  if (push_advanced_index(L, t, key)) return;
  if (Tensor* k = to_tensor(L, key)) {
    if (k->dtype() == DType::Bool || k->dtype() == DType::UInt8) {
      // x[mask]: the selected rows of the leading dims, each with the trailing dims.
      const Tensor mask = k->dtype() == DType::UInt8 ? uint8_mask(L, *k) : *k;
      Tensor r = masked_select(t, leading_mask(t, mask));
      Shape rest{-1};
      for (int64_t d = mask.dim(); d < t.dim(); ++d) rest.push_back(t.size(d));
      return push_tensor(L, rest.size() > 1 ? reshape(r, rest) : r);
    }
    GL_CHECK_T(IndexError, k->dtype() == DType::Int64 || k->dtype() == DType::Int32,
               "tensors used as indices must be long, int, byte or bool tensors");
    GL_CHECK_T(IndexError, t.dim() > 0, "invalid index of a 0-dim tensor. Use `tensor:item()` to convert a 0-dim tensor to a number");
    // x[index]: index's shape followed by the trailing dims of x; negatives count from the end.
    Tensor flat = to(reshape(*k, {-1}), Device(Device::CPU), DType::Int64);
    const int64_t n = t.size(0);
    for (int64_t i = 0; i < flat.numel(); ++i) {
      const int64_t v = flat.data<int64_t>()[i];
      GL_CHECK_T(IndexError, v >= -n && v < n, "index ", v, " is out of bounds for dimension 0 with size ", n);
    }
    Shape shape = k->sizes();
    for (int64_t d = 1; d < t.dim(); ++d) shape.push_back(t.size(d));
    return push_tensor(L, reshape(index_select(t, 0, flat), shape));
  }
  push_tensor(L, apply_items(t, parse_key(L, key)));
}

void assign_index(lua_State* L, Tensor& t, int key, int value) {
  check_inplace_leaf(t);
  if (assign_advanced_index(L, t, key, value)) return;
  if (GradMode::enabled() && t.requires_grad())
    throw RuntimeError("gpulab does not record in-place assignment into tensors that require grad");
  Tensor* vt = to_tensor(L, value);
  auto vs = to_scalar(L, value);
  if (!vt && !vs)
    throw TypeError(cat("can't assign a ", type_name(L, value), " to a ", dtype_repr(t.dtype()), " tensor"));
  if (Tensor* k = to_tensor(L, key); k && (k->dtype() == DType::Bool || k->dtype() == DType::UInt8)) {
    Tensor mask = *k;
    if (k->dtype() == DType::UInt8 && k->dim() > 0) {
      // PyTorch sends a one-element value on the CPU (a number too) to
      // masked_fill_, which checks the mask's shape and then refuses uint8;
      // any other value goes through index_put_, which takes it with a warning.
      if (!vt || (vt->numel() == 1 && vt->device().is_cpu())) {
        leading_mask(t, *k);
        throw RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype unsigned char");
      }
    }
    if (k->dtype() == DType::UInt8) mask = uint8_mask(L, *k);
    leading_mask(t, mask);  // PyTorch's mask shape check
    if (vt) return masked_assign_(t, mask, *vt);
    Tensor v = empty_on({}, t.dtype(), t.device());
    fill_(v, *vs);  // refuses a value the dtype cannot hold, as PyTorch does
    return masked_assign_(t, mask, v);
  }
  GL_CHECK_T(IndexError, !to_tensor(L, key), "gpulab: assignment through an index tensor is not supported; use a mask");
  Tensor view = apply_items(t, parse_key(L, key));
  if (!vt) return fill_(view, *vs);
  // PyTorch's setitem drops the value's leading 1s, then expands it to the
  // target (so a wrong shape reports expand's error), then copies.
  Shape vsz = vt->sizes();
  while (!vsz.empty() && vsz.front() == 1) vsz.erase(vsz.begin());
  copy_(view, expand(reshape(*vt, vsz), view.sizes()));
}

}  // namespace gl::lt
