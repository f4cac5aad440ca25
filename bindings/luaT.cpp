#include "bindings/luaT.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include "bindings/udata.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"

namespace gl::lt {

// Note [Trampoline]: the message of a C++ exception, as PyTorch words it.
void push_error(lua_State* L, std::exception_ptr ep) {
  try {
    std::rethrow_exception(ep);
  } catch (const gl::Error& e) {
    std::string m = std::string(e.kind()) + ": " + e.what();
    if (!e.hint().empty()) m += "\nhint: " + e.hint();
    lua_pushlstring(L, m.data(), m.size());
  } catch (const std::bad_alloc&) {
    lua_pushstring(L, "RuntimeError: out of host memory");
  } catch (const std::exception& e) {
    lua_pushfstring(L, "RuntimeError: %s", e.what());
  } catch (...) {
    lua_pushstring(L, "RuntimeError: unknown C++ exception");
  }
}

namespace {

const char* kTensorMT = "torch.Tensor";
const char* kDeviceMT = "torch.device";
const char* kDTypeMT = "torch.dtype";
const char* kSizeMT = "torch.Size";
const char kDocsKey = 0;      // registry key of the function -> doc weak table

// Note [Per-op path]: every tensor an op returns is looked up in, and added
// to, the identity table and given the tensor metatable; reaching those by a
// string or pointer key in the registry is a hash lookup each time. So
// register_types keeps them in the registry's array part (luaL_ref) and notes
// the two indices in the state's extra space, which Lua copies into every
// coroutine it creates.
struct Refs {
  int32_t identity;   // impl -> userdata, weak-valued (Note [Tensor identity])
  int32_t tensor_mt;  // the torch.Tensor metatable
};
static_assert(sizeof(Refs) <= LUA_EXTRASPACE);
Refs& refs(lua_State* L) { return *static_cast<Refs*>(lua_getextraspace(L)); }
void push_identity(lua_State* L) { lua_rawgeti(L, LUA_REGISTRYINDEX, refs(L).identity); }

int trampoline(lua_State* L) {
  Fn fn = reinterpret_cast<Fn>(lua_touserdata(L, lua_upvalueindex(1)));
  try {
    return fn(L);
  } catch (...) {
    push_error(L, std::current_exception());
  }
  return lua_error(L);  // Note [Trampoline]: nothing C++ is alive here
}

// Note [Userdata tags]. A __gc called by hand leaves the userdata reachable,
// so its identity entry goes too (a later impl at the same address must get a
// userdata of its own); a collected one's entry is gone already or is a newer
// userdata's, which stays.
int tensor_gc(lua_State* L) {
  Tensor* t = ud_test<Tensor>(L, 1, UdTag::Tensor);
  if (!t) return 0;
  const void* key = t->impl.get();
  ud_destroy<Tensor>(L, 1, UdTag::Tensor);
  push_identity(L);
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_rawgetp(L, -1, key);
    if (lua_rawequal(L, -1, 1)) {
      lua_pushnil(L);
      lua_rawsetp(L, -3, key);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return 0;
}

int size_gc(lua_State* L) {
  ud_destroy<Shape>(L, 1, UdTag::Size);
  return 0;
}

}  // namespace

void push_function(lua_State* L, Fn fn, const char* doc) {
  lua_pushlightuserdata(L, reinterpret_cast<void*>(fn));
  lua_pushcclosure(L, trampoline, 1);
  if (doc) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &kDocsKey);
    lua_pushvalue(L, -2);
    lua_pushstring(L, doc);
    lua_rawset(L, -3);
    lua_pop(L, 1);
  }
}

void push_closure(lua_State* L, Fn fn, int nup) {
  lua_pushlightuserdata(L, reinterpret_cast<void*>(fn));
  lua_insert(L, -(nup + 1));
  lua_pushcclosure(L, trampoline, nup + 1);
}

void set_functions(lua_State* L, const Reg* regs, const char* sig_prefix, bool method) {
  for (; regs->name; ++regs) {
    if (sig_prefix) push_checked(L, regs->fn, regs->doc, std::string(sig_prefix) + regs->name, method);
    else push_function(L, regs->fn, regs->doc);
    lua_setfield(L, -2, regs->name);
  }
}


const char* doc_of(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kDocsKey);
  lua_pushvalue(L, idx);
  lua_rawget(L, -2);
  const char* d = lua_tostring(L, -1);
  lua_pop(L, 2);  // the docs table keeps the string alive
  return d;
}

void set_doc(lua_State* L, int idx, const char* doc) {
  idx = lua_absindex(L, idx);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kDocsKey);
  lua_pushvalue(L, idx);
  lua_pushstring(L, doc);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

void register_types(lua_State* L) {
  // Weak-valued identity map and weak-keyed docs.
  lua_newtable(L);
  lua_newtable(L);
  lua_pushstring(L, "v");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  refs(L).identity = luaL_ref(L, LUA_REGISTRYINDEX);
  lua_newtable(L);
  lua_newtable(L);
  lua_pushstring(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kDocsKey);
  ud_set_finalizer(UdTag::Tensor, tensor_gc);
  ud_set_finalizer(UdTag::Size, size_gc);
  luaL_newmetatable(L, kTensorMT);
  ud_set_gc(L, -1);  // Note [One finalizer]
  refs(L).tensor_mt = luaL_ref(L, LUA_REGISTRYINDEX);
  for (const char* mt : {kDeviceMT, kDTypeMT}) {
    luaL_newmetatable(L, mt);
    ud_set_gc(L, -1);
    lua_pop(L, 1);
  }
  luaL_newmetatable(L, kSizeMT);
  ud_set_gc(L, -1);
  lua_pop(L, 1);
}

void push_tensor(lua_State* L, const Tensor& t) {
  if (!t.defined()) {
    lua_pushnil(L);
    return;
  }
  push_identity(L);
  // A tensor no one else holds (an op's fresh result) has no userdata yet:
  // the userdata would hold a reference.
  if (t.impl.use_count() > 1) {
    lua_rawgetp(L, -1, t.impl.get());
    if (!lua_isnil(L, -1)) {
      lua_remove(L, -2);
      return;
    }
    lua_pop(L, 1);
  }
  // ud_push with the metatable from its array slot (Note [Per-op path]).
  auto* b = static_cast<UdBox<Tensor>*>(lua_newuserdatauv(L, sizeof(UdBox<Tensor>), 0));
  b->tag = UdTag::Dead;
  lua_rawgeti(L, LUA_REGISTRYINDEX, refs(L).tensor_mt);
  lua_setmetatable(L, -2);
  new (&b->value) Tensor(t);
  b->tag = UdTag::Tensor;
  // Lua's collector only sees the small userdata, not the storage behind it:
  // report storages the host allocator does not cache (over 64 KiB) as
  // allocation debt, so that dead tensors are freed promptly and malloc hands
  // the same warm pages back (a step of an MLP otherwise faults in fresh ones).
  if (size_t nb = t.storage()->nbytes; nb > (size_t(64) << 10) && t.storage().use_count() == 1)
    lua_gc(L, LUA_GCSTEP, int(std::min<size_t>(nb >> 10, size_t(1) << 30)));
  lua_pushvalue(L, -1);
  lua_rawsetp(L, -3, t.impl.get());
  lua_remove(L, -2);
}

// Index 0 means "argument absent" (Args::at): never a stack slot (Lua would
// read the top of the stack there).
Tensor* to_tensor(lua_State* L, int idx) {
  if (idx == 0) return nullptr;
  if (Tensor* t = ud_test<Tensor>(L, idx, UdTag::Tensor)) return t;
  if (ud_dead<Tensor>(L, idx) && luaL_testudata(L, idx, kTensorMT))
    throw RuntimeError("this Tensor was already finalized (its __gc ran) and cannot be used");
  return nullptr;
}

Tensor& check_tensor(lua_State* L, int idx, const char* what) {
  Tensor* t = to_tensor(L, idx);
  if (!t) throw TypeError(cat(what, " must be a Tensor, not ", type_name(L, idx)));
  return *t;
}

void push_device(lua_State* L, Device d) { ud_push<Device>(L, UdTag::Device, kDeviceMT, d); }

std::optional<Device> to_device(lua_State* L, int idx) {
  if (idx == 0) return std::nullopt;
  if (auto* d = ud_test<Device>(L, idx, UdTag::Device)) return *d;
  if (lua_type(L, idx) == LUA_TSTRING) return Device::parse(lua_tostring(L, idx));
  if (lua_isinteger(L, idx)) {
    lua_Integer i = lua_tointeger(L, idx);
    GL_CHECK(i >= 0 && i < 1 << 15, "Device index must not be negative");
    return Device(Device::CUDA, int(i));
  }
  return std::nullopt;
}

void push_dtype(lua_State* L, DType d) { ud_push<DType>(L, UdTag::DType, kDTypeMT, d); }

std::optional<DType> to_dtype(lua_State* L, int idx) {
  if (idx == 0) return std::nullopt;
  if (auto* d = ud_test<DType>(L, idx, UdTag::DType)) return *d;
  if (lua_type(L, idx) == LUA_TSTRING) {
    DType d;
    if (dtype_from_name(lua_tostring(L, idx), &d)) return d;
    throw TypeError(cat("unknown dtype '", lua_tostring(L, idx), "'"));
  }
  return std::nullopt;
}

void push_size(lua_State* L, const Shape& s) { ud_push<Shape>(L, UdTag::Size, kSizeMT, s); }

void push_scalar(lua_State* L, Scalar s) {
  if (s.kind == Scalar::Bool) lua_pushboolean(L, s.i != 0);
  else if (s.kind == Scalar::Int) lua_pushinteger(L, s.i);
  else lua_pushnumber(L, s.f);
}

std::optional<Scalar> to_scalar(lua_State* L, int idx) {
  if (idx == 0) return std::nullopt;  // an absent argument (Args::at); lua_type(L, 0) is undefined
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) return Scalar::from_int(lua_tointeger(L, idx));
      return Scalar::from_double(lua_tonumber(L, idx));
    case LUA_TBOOLEAN: return Scalar::from_bool(lua_toboolean(L, idx));
    default: return std::nullopt;
  }
}

std::string type_name(lua_State* L, int idx) {
  if (idx == 0 || lua_isnone(L, idx)) return "nothing";
  if (to_tensor(L, idx)) return "Tensor";
  if (ud_test<Device>(L, idx, UdTag::Device)) return "torch.device";
  if (ud_test<DType>(L, idx, UdTag::DType)) return "torch.dtype";
  if (ud_test<Shape>(L, idx, UdTag::Size)) return "torch.Size";
  if (lua_type(L, idx) == LUA_TNUMBER) return lua_isinteger(L, idx) ? "int" : "float";
  return luaL_typename(L, idx);
}

void type_error(const char* fname, const char* arg, const char* expected, const std::string& got) {
  throw TypeError(cat(fname, "(): argument '", arg, "' must be ", expected, ", not ", got));
}

// ---- Args ----

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

int Args::at(int i, const char* name) {
  if (i >= 0 && i < n() && !lua_isnil(L, pos_[size_t(i)])) return pos_[size_t(i)];
  if (!name || !kw_) return 0;
  used_.emplace_back(name);
  GL_CHECK(lua_checkstack(L, 4), "stack overflow");
  lua_pushstring(L, name);
  lua_rawget(L, kw_);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return 0;
  }
  return lua_gettop(L);
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
  if (Tensor* t = to_tensor(L, idx); t && t->numel() == 1 && !is_floating(t->dtype())) {
    return gl::item(*t).i;
  }
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
  if (Tensor* t = to_tensor(L, idx); t && t->numel() == 1) {
    return gl::item(*t).to_double();
  }
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

Scalar Args::scalar(int i, const char* name) {
  int idx = at(i, name);
  auto s = idx ? to_scalar(L, idx) : std::nullopt;
  if (!s) {
    if (Tensor* t = idx ? to_tensor(L, idx) : nullptr; t && t->numel() == 1) {
        return gl::item(*t);
    }
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
  if (!idx || lua_type(L, idx) != LUA_TTABLE) type_error(fname, name, "a table of Tensors", type_name(L, idx));
  std::vector<Tensor> out;
  const int n = int(lua_rawlen(L, idx));
  for (int k = 1; k <= n; ++k) {
    lua_rawgeti(L, idx, k);
    Tensor* t = to_tensor(L, -1);
    if (!t) throw TypeError(cat(fname, "(): expected Tensor as element ", k - 1, " in argument '", name, "', but got ",
                                type_name(L, -1)));
    out.push_back(*t);
    lua_pop(L, 1);
  }
  return out;
}

void Args::finish(int max_positional) {
  if (n() > max_positional) throw_too_many(fname, max_positional, n());
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
