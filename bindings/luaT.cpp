#include "bindings/luaT.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include "bindings/udata.h"
#include "tensor/core/error.h"
#include "tensor/ops/ops.h"

namespace gl::lt {

namespace {

// Note [Operator operands]: Python's binary operators turn their method's
// TypeError into NotImplemented, so x + "a" reports the operator, "unsupported
// operand type(s) for +: 'Tensor' and 'str'", where x:add("a") names add()'s
// argument. The operators here are the methods themselves (tensor_object.cpp),
// so a TypeError raised in a function Lua called as one of these metamethods
// gets Python's text; the fast path is untouched.
bool push_operator_error(lua_State* L) {
  static const char* const symbols[][2] = {{"add", "+"}, {"sub", "-"},           {"mul", "*"},   {"div", "/"},
                                           {"mod", "%"}, {"pow", "** or pow()"}, {"idiv", "//"}, {"band", "&"},
                                           {"bor", "|"}, {"bxor", "^"}};
  // "a" + x runs the string's __add first, a C function that calls x's with
  // lua_call: then the operator is one level up.
  lua_Debug ar;
  if (!lua_getstack(L, 0, &ar) || !lua_getinfo(L, "n", &ar)) return false;
  if (ar.namewhat && !*ar.namewhat &&
      (!lua_getstack(L, 1, &ar) || !lua_getinfo(L, "nS", &ar) || ar.what == nullptr || std::strcmp(ar.what, "C") != 0))
    return false;
  if (!ar.namewhat || !ar.name || std::strcmp(ar.namewhat, "metamethod") != 0) return false;
  if (!luaL_testudata(L, 1, "torch.Tensor") && !luaL_testudata(L, 2, "torch.Tensor"))
    return false;  // torch.Size's + has its own
  for (const auto& s : symbols) {
    if (std::strcmp(ar.name, s[0]) != 0) continue;
    std::string m;
    try {  // type_name throws for a finalized tensor; then the method's own text stands
      m = cat("TypeError: unsupported operand type(s) for ", s[1], ": '", type_name(L, 1), "' and '", type_name(L, 2),
              "'");
    } catch (...) { return false; }
    lua_pushlstring(L, m.data(), m.size());
    return true;
  }
  return false;
}
}  // namespace

// Note [Trampoline]: the message of a C++ exception, as PyTorch words it.
void push_error(lua_State* L, std::exception_ptr ep) {
  try {
    std::rethrow_exception(ep);
  } catch (const LuaCallbackError& e) { lua_pushstring(L, e.what()); } catch (const gl::Error& e) {
    if (dynamic_cast<const TypeError*>(&e) && push_operator_error(L)) return;
    std::string m = std::string(e.kind()) + ": " + e.what();
    if (!e.hint().empty()) m += "\nhint: " + e.hint();
    lua_pushlstring(L, m.data(), m.size());
  } catch (const std::bad_alloc&) {
    lua_pushstring(L, "RuntimeError: out of host memory");
  } catch (const std::exception& e) { lua_pushfstring(L, "RuntimeError: %s", e.what()); } catch (...) {
    lua_pushstring(L, "RuntimeError: unknown C++ exception");
  }
}

namespace {

const char* kTensorMT = "torch.Tensor";
const char* kDeviceMT = "torch.device";
const char* kDTypeMT = "torch.dtype";
const char* kSizeMT = "torch.Size";
const char kDocsKey = 0;  // registry key of the function -> doc weak table

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
  } catch (...) { push_error(L, std::current_exception()); }
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
  // report storages of a page or more as allocation debt, so that dead tensors
  // are freed promptly and their blocks reused warm (a step of an MLP otherwise
  // faults in fresh pages). The host allocator's cache of blocks up to 64 KiB
  // only refills when the collector runs: unreported, a loop of 100x100
  // matmuls took 108,000 page faults and ran at half speed between collections.
  // An eighth of the size is debt enough to keep the garbage within a few
  // times the Lua heap; the whole size made the collector a fifth of that loop.
  // Device memory (real or virtual) is not reported: its caching allocator
  // collects young garbage itself when it needs a block, and a step here made
  // each result survive into the old generation, where only a full collection
  // frees it (Note [Young garbage first]).
  const Storage& st = *t.storage();
  if (size_t nb = st.nbytes;
      nb >= (size_t(4) << 10) && t.storage().use_count() == 1 && !(st.alloc && st.alloc->collects_garbage()))
    lua_gc(L, LUA_GCSTEP, int(std::min<size_t>(nb >> 13, size_t(1) << 30)));
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
  idx = lua_absindex(L, idx);
  if (to_tensor(L, idx)) return "Tensor";
  if (ud_test<Device>(L, idx, UdTag::Device)) return "torch.device";
  if (ud_test<DType>(L, idx, UdTag::DType)) return "torch.dtype";
  if (ud_test<Shape>(L, idx, UdTag::Size)) return "torch.Size";
  // Python's names for the Lua types (Note [Python type names]).
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER: return lua_isinteger(L, idx) ? "int" : "float";
    case LUA_TSTRING: return "str";
    case LUA_TBOOLEAN: return "bool";
    case LUA_TNIL: return "NoneType";
    case LUA_TTABLE:
      if (luaL_getmetafield(L, idx, "__name") != LUA_TNIL) {  // a class instance: nn.Linear says Linear
        std::string name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "object";
        lua_pop(L, 1);
        return name;
      }
      // A plain table: a list when empty or when it has [1], else a dict.
      if (lua_rawlen(L, idx) > 0) return "list";
      lua_pushnil(L);
      if (lua_next(L, idx) == 0) return "list";
      lua_pop(L, 2);
      return "dict";
    default: return luaL_typename(L, idx);
  }
}

void type_error(const char* fname, const char* arg, const char* expected, const std::string& got) {
  // An absent required argument: Python's own words (torch.mm(a): mm() missing ... "mat2").
  if (got == "nothing") throw TypeError(cat(fname, "() missing 1 required positional arguments: \"", arg, "\""));
  throw TypeError(cat(fname, "(): argument '", arg, "' must be ", expected, ", not ", got));
}

}  // namespace gl::lt
