// Tab completion, part 1: scanning the line and evaluating an index/field chain
// (`net[0].weight`, `torch.zeros(2)`) without calling any Lua function.
#include <cstdlib>

#include "interpreter/completion_parts.h"

namespace gl::interp::completion {
namespace {

// torch functions whose result is a tensor: `torch.zeros(2):<Tab>` lists a
// tensor's methods without running the call.
const char* const kTensorFactories[] = {
    "tensor",     "empty",     "zeros",      "ones",         "rand",     "randn",     "empty_like",
    "zeros_like", "ones_like", "rand_like",  "randn_like",   "full",     "full_like", "arange",
    "linspace",   "eye",       "randint",    "randint_like", "randperm", "cat",       "concat",
    "stack",      "as_tensor", "from_numpy", "logspace",     "matmul",   "mm",        "where"};

// Tensor methods whose result is not a tensor (every other one is assumed to be).
const char* const kNonTensorMethods[] = {"item",       "tolist",         "size",
                                         "dim",        "numel",          "type",
                                         "stride",     "is_contiguous",  "element_size",
                                         "data_ptr",   "get_device",     "equal",
                                         "nelement",   "storage_offset", "is_floating_point",
                                         "is_complex", "backward",       "unbind",
                                         "split",      "chunk",          "max",
                                         "min",        "sort",           "topk",
                                         "median",     "mode",           "kthvalue"};

// Module methods that return the module itself (PyTorch's `net.cuda().`).
const char* const kModuleSelfMethods[] = {"to",   "cuda",           "cpu",   "float",    "double", "half", "train",
                                          "eval", "requires_grad_", "apply", "zero_grad"};

}  // namespace

// ---- scanning the line --------------------------------------------------------

Scan scan(std::string_view s) {
  Scan r;
  char quote = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '-' && i + 1 < s.size() && s[i + 1] == '-') {
      r.in_comment = true;
      return r;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      r.string_start = i + 1;
    } else if (c == '(' || c == '[' || c == '{') {
      r.open.push_back(i);
    } else if ((c == ')' || c == ']' || c == '}') && !r.open.empty()) {
      r.open.pop_back();
    }
  }
  r.in_string = quote != 0;
  return r;
}

size_t chain_start(std::string_view s, size_t end) {
  size_t i = end;
  while (i > 0) {
    char c = s[i - 1];
    if (ident_char(c) || c == '.' || c == ':') {
      --i;
    } else if (c == ')' || c == ']' || c == '}') {
      int depth = 0;
      size_t j = i;
      while (j > 0) {
        char d = s[--j];
        if (d == ')' || d == ']' || d == '}') ++depth;
        else if ((d == '(' || d == '[' || d == '{') && --depth == 0) break;
      }
      if (depth != 0) return end;  // unbalanced: no chain
      i = j;
    } else {
      break;
    }
  }
  return i;
}

// ---- evaluating a chain without calling Lua functions --------------------------

bool is_tensor(lua_State* L, int idx) { return luaL_testudata(L, idx, kTensorMT) != nullptr; }

bool is_module(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return false;
  bool yes = lua_getfield(L, -1, "__is_module") == LUA_TBOOLEAN && lua_toboolean(L, -1);
  lua_pop(L, 2);
  return yes;
}

// A class made by U.class for modules: its instances' metatable (__meta) says __is_module.
static bool is_module_class(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return false;
  idx = lua_absindex(L, idx);
  const int top = lua_gettop(L);
  lua_pushliteral(L, "__meta");
  bool yes =
      lua_rawget(L, idx) == LUA_TTABLE && lua_getfield(L, -1, "__is_module") == LUA_TBOOLEAN && lua_toboolean(L, -1);
  lua_settop(L, top);
  return yes;
}

// Runs obj[key] through a C __index (the bindings' userdata): pure by design.
static int c_index(lua_State* L) {
  lua_gettable(L, 1);
  return 1;
}

// Pushes rawget(t, key) for the table at idx, or nothing when it is not a table
// or the value is nil. Returns whether it pushed.
static bool raw_lookup(lua_State* L, int idx, int key) {
  if (lua_type(L, idx) != LUA_TTABLE) return false;
  lua_pushvalue(L, key);
  if (lua_rawget(L, idx) != LUA_TNIL) return true;
  lua_pop(L, 1);
  return false;
}

// obj[key] with the object at `obj` and the key at `key`: raw fields, a
// module's registries and class, __index tables, and C __index functions.
static bool lookup_steps(lua_State* L, int obj, int key) {
  key = lua_absindex(L, key);
  for (int depth = 0; depth < 16; ++depth) {
    if (raw_lookup(L, obj, key)) return true;
    if (is_module(L, obj)) {
      for (const char* reg : {"_parameters", "_buffers", "_modules"}) {
        lua_getfield(L, obj, reg);  // raw: the field exists on an initialised module
        int r = lua_gettop(L);
        bool found = false;
        if (lua_type(L, r) == LUA_TTABLE && lua_getfield(L, r, "_v") == LUA_TTABLE) {
          int v = lua_gettop(L);
          if (lua_isinteger(L, key) && std::strcmp(reg, "_modules") == 0) {  // Sequential: net[0]
            lua_Integer i = lua_tointeger(L, key);
            lua_getfield(L, r, "_k");
            lua_Integer n = lua_type(L, -1) == LUA_TTABLE ? lua_Integer(lua_rawlen(L, -1)) : 0;
            if (i < 0) i += n;
            if (i >= 0 && i < n && lua_rawgeti(L, -1, i + 1) != LUA_TNIL) found = raw_lookup(L, v, lua_gettop(L));
            if (found) lua_replace(L, r);
          } else {
            found = raw_lookup(L, v, key);
            if (found) lua_replace(L, r);
          }
        }
        if (found) {
          lua_settop(L, r);
          return true;
        }
        lua_settop(L, r - 1);
      }
    }
    if (!lua_getmetatable(L, obj)) return false;
    int mt = lua_gettop(L);
    if (lua_getfield(L, mt, "__class") == LUA_TTABLE) {  // a module: its class chain
      lua_replace(L, mt);
      if (obj > key) lua_replace(L, obj);  // a slot of our own: reuse it, the stack does not grow
      else obj = mt;
      continue;
    }
    lua_pop(L, 1);
    int t = lua_getfield(L, mt, "__index");
    if (t == LUA_TTABLE) {
      lua_replace(L, mt);
      if (obj > key) lua_replace(L, obj);
      else obj = mt;
      continue;
    }
    if (t == LUA_TFUNCTION && lua_iscfunction(L, -1) && lua_type(L, obj) == LUA_TUSERDATA) {
      lua_pop(L, 2);
      lua_pushcfunction(L, c_index);
      lua_pushvalue(L, obj);
      lua_pushvalue(L, key);
      if (lua_pcall(L, 2, 1, 0) == LUA_OK && !lua_isnil(L, -1)) return true;
      lua_pop(L, 1);
      return false;
    }
    lua_pop(L, 2);
    return false;
  }
  return false;
}

bool lookup(lua_State* L, int obj, int key) {
  obj = lua_absindex(L, obj);
  key = lua_absindex(L, key);
  const int top = lua_gettop(L);
  if (!lookup_steps(L, obj, key)) {
    lua_settop(L, top);
    return false;
  }
  if (lua_gettop(L) > top + 1) {  // the value on top, the lookup's scratch below it
    lua_replace(L, top + 1);
    lua_settop(L, top + 1);
  }
  return true;
}

static bool in_list(const char* name, const char* const* list, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (std::strcmp(name, list[i]) == 0) return true;
  return false;
}
template <size_t N> static bool in_list(const std::string& name, const char* const (&list)[N]) {
  return in_list(name.c_str(), list, N);
}

// Is the value on the stack top torch.<factory>?
static bool is_tensor_factory(lua_State* L) {
  int f = lua_gettop(L);
  bool yes = false;
  if (lua_getglobal(L, "torch") == LUA_TTABLE) {
    for (const char* name : kTensorFactories) {
      lua_getfield(L, -1, name);
      yes = lua_rawequal(L, -1, f);
      lua_pop(L, 1);
      if (yes) break;
    }
  }
  lua_settop(L, f);
  return yes;
}

// Index of the bracket closing the one at s[i] (the chain is balanced).
static size_t closing(std::string_view s, size_t i) {
  int depth = 0;
  for (size_t j = i; j < s.size(); ++j) {
    if (s[j] == '(' || s[j] == '[' || s[j] == '{') ++depth;
    else if ((s[j] == ')' || s[j] == ']' || s[j] == '}') && --depth == 0) return j;
  }
  return std::string_view::npos;
}

Kind evaluate_chain(lua_State* L, std::string_view expr) {
  const int top = lua_gettop(L);
  size_t i = 0;
  auto name_at = [&](size_t& p) {
    size_t b = p;
    while (p < expr.size() && ident_char(expr[p])) ++p;
    return std::string(expr.substr(b, p - b));
  };
  std::string first = name_at(i);
  if (!is_identifier(first.c_str())) return Kind::None;
  lua_pushglobaltable(L);
  lua_pushstring(L, first.c_str());
  if (!raw_lookup(L, top + 1, top + 2)) {
    lua_settop(L, top);
    return Kind::None;
  }
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
  Kind kind = Kind::Value;
  auto fail = [&] {
    lua_settop(L, top);
    return Kind::None;
  };
  while (i < expr.size()) {
    char c = expr[i];
    if (c == '.' || c == ':') {
      ++i;
      std::string name = name_at(i);
      if (!is_identifier(name.c_str())) return fail();
      if (c == ':') {  // a method call: its result's type only
        size_t a = i;
        if (a >= expr.size() || (expr[a] != '(' && expr[a] != '{')) return fail();
        size_t close = closing(expr, a);
        if (close == std::string_view::npos) return fail();
        i = close + 1;
        if (kind == Kind::Tensor || (kind == Kind::Value && is_tensor(L, -1))) {
          if (in_list(name, kNonTensorMethods)) return fail();
          lua_settop(L, top);
          kind = Kind::Tensor;
          continue;
        }
        if (kind == Kind::Value && is_module(L, -1) && in_list(name, kModuleSelfMethods)) continue;
        if (kind == Kind::Instance && in_list(name, kModuleSelfMethods)) continue;
        return fail();
      }
      if (kind != Kind::Value) return fail();  // a field of an object we did not make
      lua_pushstring(L, name.c_str());
      if (!lookup(L, -2, -1)) return fail();
      lua_replace(L, top + 1);
      lua_settop(L, top + 1);
    } else if (c == '[') {
      size_t close = closing(expr, i);
      if (close == std::string_view::npos) return fail();
      std::string_view inner = expr.substr(i + 1, close - i - 1);
      i = close + 1;
      while (!inner.empty() && std::isspace(static_cast<unsigned char>(inner.front()))) inner.remove_prefix(1);
      while (!inner.empty() && std::isspace(static_cast<unsigned char>(inner.back()))) inner.remove_suffix(1);
      if (kind == Kind::Tensor || (kind == Kind::Value && is_tensor(L, -1))) {  // x[...] is a tensor
        lua_settop(L, top);
        kind = Kind::Tensor;
        continue;
      }
      if (kind != Kind::Value) return fail();
      if (inner.size() >= 2 && (inner.front() == '"' || inner.front() == '\'') && inner.back() == inner.front()) {
        std::string key(inner.substr(1, inner.size() - 2));
        if (key.find_first_of("\\\"'") != std::string::npos) return fail();
        lua_pushstring(L, key.c_str());
      } else {
        std::string digits(inner);
        char* endp = nullptr;
        long long v = std::strtoll(digits.c_str(), &endp, 10);
        if (digits.empty() || *endp != '\0') return fail();
        lua_pushinteger(L, static_cast<lua_Integer>(v));
      }
      if (!lookup(L, -2, -1)) return fail();
      lua_replace(L, top + 1);
      lua_settop(L, top + 1);
    } else if (c == '(' || c == '{') {
      size_t close = closing(expr, i);
      if (close == std::string_view::npos) return fail();
      i = close + 1;
      if (kind == Kind::Value && is_module_class(L, -1)) {  // nn.Linear(2, 3): an instance of it
        kind = Kind::Instance;
        continue;
      }
      if (kind != Kind::Value || !lua_isfunction(L, -1) || !is_tensor_factory(L)) return fail();
      lua_settop(L, top);
      kind = Kind::Tensor;
    } else {
      return fail();
    }
  }
  return kind;
}

}  // namespace gl::interp::completion
