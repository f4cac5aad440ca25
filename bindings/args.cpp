// Args: the argument reader every binding uses (positional, keyword table,
// defaults and the error texts PyTorch gives for a wrong one).
#include <cmath>
#include <cstring>
#include <utility>
#include "bindings/luaT.h"
#include "bindings/udata.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"

namespace gl::lt {

namespace {
bool is_kw_table(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE || lua_getmetatable(L, idx)) {
    if (lua_type(L, idx) == LUA_TTABLE) lua_pop(L, 1);
    return false;
  }
  if (lua_rawlen(L, idx) > 0) return false;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    bool str = lua_type(L, -2) == LUA_TSTRING;
    if (str) {
      lua_pop(L, 2);
      return true;
    }
    lua_pop(L, 1);
  }
  return false;
}
// `{}` with nothing in it and no metatable.
bool is_empty_plain_table(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return false;
  if (lua_getmetatable(L, idx)) {
    lua_pop(L, 1);
    return false;
  }
  lua_pushnil(L);
  if (!lua_next(L, idx)) return true;
  lua_pop(L, 2);
  return false;
}
bool has_string_keys(lua_State* L, int idx) {
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    bool str = lua_type(L, -2) == LUA_TSTRING;
    lua_pop(L, 1);
    if (str) {
      lua_pop(L, 1);
      return true;
    }
  }
  return false;
}
}  // namespace

Args::Args(lua_State* L_, int first, const char* f) : L(L_), fname(f) {
  int top = lua_gettop(L);
  if (top >= first && is_kw_table(L, top)) {
    kw_ = top;
    --top;
  } else if (top > first && is_empty_plain_table(L, top)) {
    // f(2, {}): a trailing empty table after other arguments is an empty
    // options table (as `f(2)`); alone, `f({})` stays a positional (a 0-d size).
    kw_ = top;
    empty_options_ = true;
    --top;
  } else if (top == first && lua_type(L, top) == LUA_TTABLE && !lua_getmetatable(L, top) && lua_rawlen(L, top) > 0 &&
             has_string_keys(L, top)) {
    // One table mixing positionals and keywords: f{2, 3, device='cuda'}.
    kw_ = top;
    const int n = int(lua_rawlen(L, top));
    GL_CHECK(lua_checkstack(L, n + 8), "too many arguments");
    for (int i = 1; i <= n; ++i) {
      lua_rawgeti(L, kw_, i);
      pos_.push_back(lua_gettop(L));
    }
    return;
  }
  for (int i = first; i <= top; ++i) pos_.push_back(i);
}

namespace {
constexpr std::pair<const char*, const char*> kNumpyAliases[] = {
    {"axis", "dim"}, {"keepdims", "keepdim"}, {"x", "input"}, {"a", "input"}, {"x1", "input"}, {"x2", "other"}};
}  // namespace

const char* numpy_alias_of(const char* key) {
  for (auto [alias, name] : kNumpyAliases)
    if (std::strcmp(alias, key) == 0) return name;
  return nullptr;
}

int Args::at(int i, const char* name) {
  if (i >= 0 && i < n() && !lua_isnil(L, pos_[size_t(i)])) return pos_[size_t(i)];
  if (!name || !kw_) return 0;
  GL_CHECK(lua_checkstack(L, 4), "stack overflow");
  // The name itself, then its NumPy aliases (Note [NumPy keyword aliases]).
  auto lookup = [&](const char* key) {
    used_.emplace_back(key);
    lua_pushstring(L, key);
    lua_rawget(L, kw_);
    if (!lua_isnil(L, -1)) return true;
    lua_pop(L, 1);
    return false;
  };
  if (lookup(name)) return lua_gettop(L);
  for (auto [alias, canonical] : kNumpyAliases)
    if (std::strcmp(canonical, name) == 0 && lookup(alias)) return lua_gettop(L);
  return 0;
}

Tensor& Args::tensor(int i, const char* name) {
  int idx = at(i, name);
  Tensor* t = idx ? to_tensor(L, idx) : nullptr;
  if (!t) type_error(fname, name, "Tensor", type_name(L, idx));
  return *t;
}

int64_t Args::integer(int i, const char* name) {
  auto v = opt_integer(i, name);
  if (!v) type_error(fname, name, "int", "nothing");
  return *v;
}

std::optional<int64_t> Args::opt_integer(int i, const char* name) {
  int idx = at(i, name);
  if (!idx) return std::nullopt;
  if (lua_isinteger(L, idx)) return lua_tointeger(L, idx);
  if (lua_type(L, idx) == LUA_TNUMBER) {
    double d = lua_tonumber(L, idx);
    if (std::floor(d) == d && std::fabs(d) < 9.2e18) return int64_t(d);
  }
  if (Tensor* t = to_tensor(L, idx); t && t->numel() == 1 && !is_floating(t->dtype())) { return gl::item(*t).i; }
  type_error(fname, name, "int", type_name(L, idx));
}

double Args::number(int i, const char* name) {
  auto v = opt_number(i, name);
  if (!v) type_error(fname, name, "a number", "nothing");
  return *v;
}

std::optional<double> Args::opt_number(int i, const char* name) {
  int idx = at(i, name);
  if (!idx) return std::nullopt;
  if (lua_type(L, idx) == LUA_TNUMBER) return lua_tonumber(L, idx);
  if (Tensor* t = to_tensor(L, idx); t && t->numel() == 1) { return gl::item(*t).to_double(); }
  type_error(fname, name, "a number", type_name(L, idx));
}

bool Args::boolean(int i, const char* name, bool dflt) {
  int idx = at(i, name);
  if (!idx) return dflt;
  if (lua_type(L, idx) != LUA_TBOOLEAN) type_error(fname, name, "bool", type_name(L, idx));
  return lua_toboolean(L, idx);
}

std::string Args::string(int i, const char* name, const char* dflt) {
  int idx = at(i, name);
  if (!idx) return dflt;
  if (lua_type(L, idx) != LUA_TSTRING) type_error(fname, name, "str", type_name(L, idx));
  return lua_tostring(L, idx);
}

std::optional<DType> Args::dtype(int i, const char* name) {
  int idx = at(i, name);
  if (!idx) return std::nullopt;
  auto d = to_dtype(L, idx);
  if (!d) type_error(fname, name, "torch.dtype", type_name(L, idx));
  return d;
}

std::optional<Device> Args::device(int i, const char* name) {
  int idx = at(i, name);
  if (!idx) return std::nullopt;
  auto d = to_device(L, idx);
  if (!d) type_error(fname, name, "torch.device", type_name(L, idx));
  return d;
}

TensorOptions Args::tensor_options(DType dflt) {
  TensorOptions o;
  o.dtype = dtype(-1, "dtype").value_or(dflt);
  o.device = device(-1, "device").value_or(Device(Device::CPU));
  o.requires_grad = requires_grad_ = boolean(-1, "requires_grad", false);
  pin_memory_ = boolean(-1, "pin_memory", false);
  GL_CHECK(!pin_memory_ || o.device.is_cpu(), "Only dense CPU tensors can be pinned");
  return o;
}

Tensor Args::created(Tensor t) {
  if (requires_grad_ && !t.requires_grad())
    requires_grad_at_creation(t);  // for the ops that take no TensorOptions' flag
  if (!pin_memory_) return t;
  Tensor p = gl::pin_memory(gl::detach(t));
  if (t.requires_grad()) requires_grad_at_creation(p);
  return p;
}

Scalar Args::scalar(int i, const char* name) {
  int idx = at(i, name);
  auto s = idx ? to_scalar(L, idx) : std::nullopt;
  if (!s) {
    if (Tensor* t = idx ? to_tensor(L, idx) : nullptr; t && t->numel() == 1) { return gl::item(*t); }
    type_error(fname, name, "Number", type_name(L, idx));
  }
  return *s;
}

namespace {
int64_t size_entry(lua_State* L, int idx, const char* fname, const char* name) {
  if (lua_isinteger(L, idx)) {
    int64_t v = lua_tointeger(L, idx);
    return v;
  }
  if (lua_type(L, idx) == LUA_TNUMBER) {
    double d = lua_tonumber(L, idx);
    if (std::floor(d) == d && std::fabs(d) < 9.2e18) return int64_t(d);
  }
  type_error(fname, name, "tuple of ints", type_name(L, idx));
}
}  // namespace

Shape Args::shape_from(int from, const char* name) {
  Shape s;
  int idx = at(from, name);
  if (idx && (lua_type(L, idx) == LUA_TTABLE || ud_test<Shape>(L, idx, UdTag::Size))) {
    if (auto* sz = ud_test<Shape>(L, idx, UdTag::Size)) return *sz;
    const int n = int(lua_rawlen(L, idx));
    for (int k = 1; k <= n; ++k) {
      lua_rawgeti(L, idx, k);
      s.push_back(size_entry(L, lua_gettop(L), fname, name));
      lua_pop(L, 1);
    }
    return s;
  }
  for (int i = from; i < n(); ++i) s.push_back(size_entry(L, pos_[size_t(i)], fname, name));
  return s;
}

std::vector<int64_t> Args::int_list(int i, const char* name) {
  int idx = at(i, name);
  if (!idx) return {};
  if (lua_type(L, idx) == LUA_TTABLE) {
    std::vector<int64_t> out;
    const int n = int(lua_rawlen(L, idx));
    for (int k = 1; k <= n; ++k) {
      lua_rawgeti(L, idx, k);
      out.push_back(size_entry(L, lua_gettop(L), fname, name));
      lua_pop(L, 1);
    }
    return out;
  }
  return {size_entry(L, idx, fname, name)};
}

std::vector<Tensor> Args::tensor_list(int i, const char* name) {
  int idx = at(i, name);
  if (!idx || lua_type(L, idx) != LUA_TTABLE)
    type_error(fname, name, "tuple of Tensors", type_name(L, idx));  // PyTorch's words for a table
  std::vector<Tensor> out;
  const int n = int(lua_rawlen(L, idx));
  for (int k = 1; k <= n; ++k) {
    lua_rawgeti(L, idx, k);
    Tensor* t = to_tensor(L, -1);
    if (!t)
      throw TypeError(cat(fname, "(): expected Tensor as element ", k - 1, " in argument '", name, "', but got ",
                          type_name(L, -1)));
    out.push_back(*t);
    lua_pop(L, 1);
  }
  return out;
}

void Args::finish(int max_positional, int min_positional) {
  if (n() > max_positional) throw_too_many(fname, max_positional, n(), min_positional);
  if (!kw_) return;
  lua_pushnil(L);
  while (lua_next(L, kw_)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING) continue;
    std::string key = lua_tostring(L, -1);
    bool known = false;
    for (auto& u : used_) known = known || u == key;
    if (!known) {
      lua_pop(L, 1);
      throw TypeError(cat(fname, "() got an unexpected keyword argument '", key, "'"));
    }
  }
}

}  // namespace gl::lt
