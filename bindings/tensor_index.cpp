// Indexing from Lua: x[0], x[-1], x[':, 1'], x['1:3, ...'], x[{0, ':'}], x[mask],
// x[index_tensor], x[{i, j}], and assignment through the same keys. This file
// only reads the Lua key into an IndexKey; what it means is gl::getitem and
// gl::setitem_ (tensor/ops/indexing.cpp).
#include <cctype>
#include <string>
#include "bindings/luaT.h"
#include "bindings/tensor_data.h"
#include "tensor/core/error.h"
#include "tensor/ops/indexing.h"

namespace gl::lt {

namespace {

using Item = IndexItem;

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
    if (!std::isdigit((unsigned char)t[j]))
      throw IndexError(cat("invalid index '", whole, "': '", t, "' is not an integer"));
  if (t.size() > 18) throw IndexError(cat("index ", t, " is out of range"));
  return std::stoll(t);
}

}  // namespace

Item parse_index_item(const std::string& raw) {
  std::string s = trim(raw);
  Item it;
  if (s == "...") {
    it.kind = Item::Ellipsis;
    return it;
  }
  if (s == "None" || s == "nil") {
    it.kind = Item::NewAxis;
    return it;
  }
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

namespace {

void parse_string(const std::string& s, std::vector<Item>& out) {
  size_t pos = 0;
  while (true) {
    size_t comma = s.find(',', pos);
    out.push_back(parse_index_item(s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos)));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
}

bool table_has_tensor(lua_State* L, int key) {
  const int n = int(lua_rawlen(L, key));
  bool found = false;
  for (int k = 1; k <= n && !found; ++k) {
    lua_rawgeti(L, key, k);
    found = to_tensor(L, -1) != nullptr;
    lua_pop(L, 1);
  }
  return found;
}

IndexKey parse_key(lua_State* L, int key) {
  IndexKey out;
  std::vector<Item>& items = out.items;
  if (Tensor* t = to_tensor(L, key)) {
    items.push_back(Item{Item::Tensor, 0, {}, {}, 1, *t});
    out.bare = true;
  } else if (lua_isinteger(L, key)) {
    items.push_back(Item{Item::Int, lua_tointeger(L, key), {}, {}, 1, {}});
  } else if (lua_type(L, key) == LUA_TSTRING) {
    parse_string(lua_tostring(L, key), items);
  } else if (lua_type(L, key) == LUA_TTABLE) {
    const bool with_tensors = table_has_tensor(L, key);
    const int n = int(lua_rawlen(L, key));
    for (int k = 1; k <= n; ++k) {
      lua_rawgeti(L, key, k);
      if (lua_isinteger(L, -1)) items.push_back(Item{Item::Int, lua_tointeger(L, -1), {}, {}, 1, {}});
      else if (lua_type(L, -1) == LUA_TSTRING) items.push_back(parse_index_item(lua_tostring(L, -1)));
      else if (Tensor* t = to_tensor(L, -1)) items.push_back(Item{Item::Tensor, 0, {}, {}, 1, *t});
      // Python's x[[0, 1], y]: a list is an index tensor (an empty one, int64)
      else if (lua_type(L, -1) == LUA_TTABLE) {
        const std::optional<DType> dt = lua_rawlen(L, -1) == 0 ? std::optional(DType::Int64) : std::nullopt;
        items.push_back(Item{Item::Tensor, 0, {}, {}, 1, tensor_from_lua(L, lua_gettop(L), dt, Device())});
      } else {
        std::string got = type_name(L, -1);
        lua_pop(L, 1);
        throw IndexError(
            with_tensors
                ? cat("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables "
                      "are valid indices (got ",
                      got, ")")
                : cat("only integers, slices like ':' or '1:3', '...' and 'None' are valid indices (got ", got, ")"));
      }
      lua_pop(L, 1);
    }
  } else if (lua_type(L, key) == LUA_TNUMBER) {
    throw IndexError(
        "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got float)");
  } else {
    throw IndexError(
        cat("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got ",
            type_name(L, key), ")"));
  }
  return out;
}

}  // namespace

void push_index(lua_State* L, const Tensor& t, int key) { push_tensor(L, getitem(t, parse_key(L, key))); }

void assign_index(lua_State* L, Tensor& t, int key, int value) {
  IndexKey k = parse_key(L, key);
  Tensor* vt = to_tensor(L, value);
  std::optional<Scalar> vs = vt ? std::nullopt : to_scalar(L, value);
  setitem_(t, k, vt, vs, type_name(L, value));
}

}  // namespace gl::lt
