// Small value types: torch.device, torch.dtype and torch.Size userdata.
#include <algorithm>
#include <cstring>
#include <optional>
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "bindings/tensor_data.h"
#include "bindings/udata.h"
#include "tensor/core/error.h"
#include "tensor/runtime/registry.h"

namespace gl::lt {

namespace {

Device& dev(lua_State* L, int i) {
  auto* d = ud_test<Device>(L, i, UdTag::Device);
  if (!d) throw TypeError("expected a torch.device");
  return *d;
}

int device_new(lua_State* L) {
  // torch.device('cuda:1'), torch.device('cuda', 1), torch.device(1)
  auto d = to_device(L, 1);
  if (!d) type_error("device", "type", "str", type_name(L, 1));
  if (!lua_isnoneornil(L, 2)) {
    GL_CHECK(lua_isinteger(L, 2), "device(): index must be an int");
    GL_CHECK(!d->has_index(),
             "type (string) must not include an index because index was passed explicitly: ", d->str());
    lua_Integer i = lua_tointeger(L, 2);
    GL_CHECK(i >= 0, "Device index must not be negative");
    GL_CHECK(!(d->is_cpu() && i != 0), "CPU device index must be -1 or zero, got ", i);
    d = Device(d->type, int(i));
  }
  push_device(L, *d);
  return 1;
}
int device_tostring(lua_State* L) {
  lua_pushstring(L, dev(L, 1).str().c_str());
  return 1;
}
int device_eq(lua_State* L) {
  auto* a = ud_test<Device>(L, 1, UdTag::Device);
  auto* b = ud_test<Device>(L, 2, UdTag::Device);
  lua_pushboolean(L, a && b && *a == *b);
  return 1;
}
int device_index(lua_State* L) {
  Device& d = dev(L, 1);
  const char* k = lua_tostring(L, 2);
  if (!k) return 0;
  if (!std::strcmp(k, "type")) {
    lua_pushstring(L, d.is_cpu() ? "cpu" : "cuda");
    return 1;
  }
  if (!std::strcmp(k, "index")) {
    if (d.has_index()) lua_pushinteger(L, d.index);
    else lua_pushnil(L);
    return 1;
  }
  return 0;
}

DType& dt(lua_State* L, int i) {
  auto* d = ud_test<DType>(L, i, UdTag::DType);
  if (!d) throw TypeError("expected a torch.dtype");
  return *d;
}
int dtype_tostring(lua_State* L) {
  lua_pushstring(L, dtype_repr(dt(L, 1)).c_str());
  return 1;
}
int dtype_eq(lua_State* L) {
  auto* a = ud_test<DType>(L, 1, UdTag::DType);
  auto* b = ud_test<DType>(L, 2, UdTag::DType);
  lua_pushboolean(L, a && b && *a == *b);
  return 1;
}
int dtype_index(lua_State* L) {
  DType d = dt(L, 1);
  const char* k = lua_tostring(L, 2);
  if (!k) return 0;
  if (!std::strcmp(k, "is_floating_point")) {
    lua_pushboolean(L, is_floating(d));
    return 1;
  }
  if (!std::strcmp(k, "itemsize")) {
    lua_pushinteger(L, lua_Integer(itemsize(d)));
    return 1;
  }
  return 0;
}

Shape& sz(lua_State* L, int i) {
  auto* s = ud_test<Shape>(L, i, UdTag::Size);
  if (!s)
    throw TypeError(ud_dead<Shape>(L, i) ? "this torch.Size was already finalized (its __gc ran) and cannot be used"
                                         : "expected a torch.Size");
  return *s;
}
int size_new(lua_State* L) {
  Args a(L, 1, "Size");
  push_size(L, a.shape_from(0, "sizes"));
  return 1;
}
int size_tostring(lua_State* L) {
  lua_pushstring(L, size_repr(sz(L, 1)).c_str());
  return 1;
}
int size_len(lua_State* L) {
  lua_pushinteger(L, lua_Integer(sz(L, 1).size()));
  return 1;
}
int size_eq(lua_State* L) {
  auto* a = ud_test<Shape>(L, 1, UdTag::Size);
  auto* b = ud_test<Shape>(L, 2, UdTag::Size);
  lua_pushboolean(L, a && b && *a == *b);
  return 1;
}
// Python's slice of a tuple, s['1:'], s[':-1'], s['::-1'], read as x['...']
// reads it (parse_index_item): a torch.Size again (d2l 7.3 reshapes to Y.shape[2:]).
Shape size_slice(const Shape& s, const IndexItem& it) {
  const int64_t n = int64_t(s.size()), step = it.step;
  auto clampi = [&](std::optional<int64_t> x, int64_t dflt) {
    if (!x) return dflt;
    int64_t i = *x < 0 ? *x + n : *x;
    return step > 0 ? std::clamp<int64_t>(i, 0, n) : std::clamp<int64_t>(i, -1, n - 1);
  };
  const int64_t start = clampi(it.start, step > 0 ? 0 : n - 1), stop = clampi(it.stop, step > 0 ? n : -1);
  Shape out;
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) out.push_back(s[size_t(i)]);
  return out;
}

// s + t: Python's tuple concatenation (a Lua array of ints on either side too).
int size_add(lua_State* L) {
  auto part = [&](int i) {
    if (auto* s = ud_test<Shape>(L, i, UdTag::Size)) return *s;
    if (lua_type(L, i) != LUA_TTABLE)
      throw TypeError(cat("can only concatenate tuple (not ", type_name(L, i), ") to torch.Size"));
    Args a(L, i, "Size");
    return a.shape_from(0, "sizes");
  };
  Shape out = part(1);
  const Shape b = part(2);
  out.insert(out.end(), b.begin(), b.end());
  push_size(L, out);
  return 1;
}

const Shape& size_self(lua_State* L, const char* method) {
  auto* s = ud_test<Shape>(L, 1, UdTag::Size);
  GL_CHECK_T(TypeError, s, method, "(): self must be a torch.Size, not ", type_name(L, 1));
  return *s;
}

int size_index(lua_State* L) {
  Shape& s = sz(L, 1);
  if (lua_isinteger(L, 2)) {
    lua_Integer i = lua_tointeger(L, 2);
    const lua_Integer n = lua_Integer(s.size());
    GL_CHECK_T(IndexError, i >= -n && i < n, "tuple index out of range");
    lua_pushinteger(L, s[size_t(i < 0 ? i + n : i)]);
    return 1;
  }
  const char* k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : nullptr;
  if (k && std::strchr(k, ':')) {
    const IndexItem it = parse_index_item(k);
    if (it.kind == IndexItem::Slice) {
      push_size(L, size_slice(s, it));
      return 1;
    }
  }
  // s:numel(), s:totable(); s.numel() (a Python habit) passes no Size: an error, not 0
  if (k && !std::strcmp(k, "numel")) {
    push_function(
        L,
        [](lua_State* L) -> int {
          lua_pushinteger(L, numel_of(size_self(L, "numel")));
          return 1;
        },
        "s:numel(): the number of elements of a tensor of this size.");
    return 1;
  }
  if (k && !std::strcmp(k, "totable")) {
    push_function(
        L,
        [](lua_State* L) -> int {
          const Shape& s = size_self(L, "totable");
          lua_newtable(L);
          for (size_t i = 0; i < s.size(); ++i) {
            lua_pushinteger(L, s[i]);
            lua_rawseti(L, -2, lua_Integer(i + 1));
          }
          return 1;
        },
        "s:totable(): the sizes as a Lua list.");
    return 1;
  }
  return 0;
}

}  // namespace

void open_objects(lua_State* L) {
  static const Reg device_meta[] = {{"__tostring", device_tostring, nullptr},
                                    {"__eq", device_eq, nullptr},
                                    {"__index", device_index, nullptr},
                                    {nullptr, nullptr, nullptr}};
  static const Reg dtype_meta[] = {{"__tostring", dtype_tostring, nullptr},
                                   {"__eq", dtype_eq, nullptr},
                                   {"__index", dtype_index, nullptr},
                                   {nullptr, nullptr, nullptr}};
  static const Reg size_meta[] = {
      {"__tostring", size_tostring, nullptr}, {"__len", size_len, nullptr}, {"__eq", size_eq, nullptr},
      {"__index", size_index, nullptr},       {"__add", size_add, nullptr}, {nullptr, nullptr, nullptr}};
  luaL_getmetatable(L, "torch.device");
  set_functions(L, device_meta);
  lua_pop(L, 1);
  luaL_getmetatable(L, "torch.dtype");
  set_functions(L, dtype_meta);
  lua_pop(L, 1);
  luaL_getmetatable(L, "torch.Size");
  set_functions(L, size_meta);
  lua_pop(L, 1);
  // Into the torch table at the top of the stack.
  push_checked(L, device_new, "torch.device('cuda:1'), torch.device('cuda', 1): where a tensor lives.", "device");
  lua_setfield(L, -2, "device");
  push_checked(L, size_new, "torch.Size{2, 3}: a shape.", "Size");
  lua_setfield(L, -2, "Size");
  static const std::pair<const char*, DType> dtypes[] = {
      {"float32", DType::Float32}, {"float", DType::Float32}, {"float64", DType::Float64},   {"double", DType::Float64},
      {"float16", DType::Float16}, {"half", DType::Float16},  {"bfloat16", DType::BFloat16}, {"int64", DType::Int64},
      {"long", DType::Int64},      {"int32", DType::Int32},   {"int", DType::Int32},         {"int16", DType::Int16},
      {"short", DType::Int16},     {"int8", DType::Int8},     {"uint8", DType::UInt8},       {"bool", DType::Bool}};
  for (auto& [name, d] : dtypes) {
    push_dtype(L, d);
    lua_setfield(L, -2, name);
  }
}

}  // namespace gl::lt
