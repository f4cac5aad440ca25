#include "interpreter/completion.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <set>

#include <dirent.h>
#include <sys/stat.h>

#include <lua.hpp>

namespace gl::interp {
namespace {

constexpr const char* kTensorMT = "torch.Tensor";

const char* const kKeywords[] = {"and",  "break", "do",    "else", "elseif", "end",   "false", "for",
                                 "function", "goto", "if", "in",   "local",  "nil",   "not",   "or",
                                 "repeat", "return", "then", "true", "until",  "while"};

// torch functions whose result is a tensor: `torch.zeros(2):<Tab>` lists a
// tensor's methods without running the call.
const char* const kTensorFactories[] = {
    "tensor",     "empty",     "zeros",       "ones",        "rand",       "randn",  "empty_like",
    "zeros_like", "ones_like", "rand_like",   "randn_like",  "full",       "full_like", "arange",
    "linspace",   "eye",       "randint",     "randint_like", "randperm",  "cat",    "concat",
    "stack",      "as_tensor", "from_numpy",  "logspace",    "matmul",     "mm",     "where"};

// Tensor methods whose result is not a tensor (every other one is assumed to be).
const char* const kNonTensorMethods[] = {"item",   "tolist", "size",  "dim",   "numel", "type",
                                         "stride", "is_contiguous", "element_size", "data_ptr",
                                         "get_device", "equal", "nelement", "storage_offset",
                                         "is_floating_point", "is_complex", "backward", "unbind",
                                         "split", "chunk", "max", "min", "sort", "topk", "median",
                                         "mode", "kthvalue"};

// Module methods that return the module itself (PyTorch's `net.cuda().`).
const char* const kModuleSelfMethods[] = {"to", "cuda", "cpu", "float", "double", "half", "train",
                                          "eval", "requires_grad_", "apply", "zero_grad"};

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

bool is_identifier(const char* s) {
  if (s == nullptr || !ident_start(s[0])) return false;
  for (const char* p = s; *p; ++p)
    if (!ident_char(*p)) return false;
  for (const char* k : kKeywords)
    if (std::strcmp(s, k) == 0) return false;
  return true;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// ---- scanning the line --------------------------------------------------------

struct Scan {
  bool in_string = false;
  size_t string_start = 0;   // first character inside the open string
  bool in_comment = false;
  std::vector<size_t> open;  // positions of unclosed ( [ {
};

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

// Start of the expression chain (names, '.', ':', balanced brackets) ending at `end`.
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

// What a step of the chain gave: a real value (on the stack top), a tensor known
// only by its type (a call's result), or nothing usable.
// Instance: an nn module made by calling its class (the class is on the stack).
enum class Kind { Value, Tensor, Instance, None };

bool is_tensor(lua_State* L, int idx) { return luaL_testudata(L, idx, kTensorMT) != nullptr; }

bool is_module(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return false;
  bool yes = lua_getfield(L, -1, "__is_module") == LUA_TBOOLEAN && lua_toboolean(L, -1);
  lua_pop(L, 2);
  return yes;
}

// A class made by U.class for modules: its instances' metatable (__meta) says __is_module.
bool is_module_class(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return false;
  idx = lua_absindex(L, idx);
  const int top = lua_gettop(L);
  lua_pushliteral(L, "__meta");
  bool yes = lua_rawget(L, idx) == LUA_TTABLE && lua_getfield(L, -1, "__is_module") == LUA_TBOOLEAN &&
             lua_toboolean(L, -1);
  lua_settop(L, top);
  return yes;
}

// Runs obj[key] through a C __index (the bindings' userdata): pure by design.
int c_index(lua_State* L) {
  lua_gettable(L, 1);
  return 1;
}

// Pushes rawget(t, key) for the table at idx, or nothing when it is not a table
// or the value is nil. Returns whether it pushed.
bool raw_lookup(lua_State* L, int idx, int key) {
  if (lua_type(L, idx) != LUA_TTABLE) return false;
  lua_pushvalue(L, key);
  if (lua_rawget(L, idx) != LUA_TNIL) return true;
  lua_pop(L, 1);
  return false;
}

// obj[key] with the object at `obj` and the key at `key`: raw fields, a
// module's registries and class, __index tables, and C __index functions.
bool lookup_steps(lua_State* L, int obj, int key) {
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

// Pushes obj[key] (true) or leaves the stack as it was (false).
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

bool in_list(const char* name, const char* const* list, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (std::strcmp(name, list[i]) == 0) return true;
  return false;
}
template <size_t N>
bool in_list(const std::string& name, const char* const (&list)[N]) {
  return in_list(name.c_str(), list, N);
}

// Is the value on the stack top torch.<factory>?
bool is_tensor_factory(lua_State* L) {
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
size_t closing(std::string_view s, size_t i) {
  int depth = 0;
  for (size_t j = i; j < s.size(); ++j) {
    if (s[j] == '(' || s[j] == '[' || s[j] == '{') ++depth;
    else if ((s[j] == ')' || s[j] == ']' || s[j] == '}') && --depth == 0) return j;
  }
  return std::string_view::npos;
}

// Evaluates the chain `expr` (e.g. `net[0].weight`, `torch.zeros(2)`). On
// Value, the value is pushed; otherwise the stack is as it was.
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
    } else if (c == '(' || c == '{' ) {
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

// ---- listing what an object has -------------------------------------------------

using Names = std::set<std::string>;

// String keys of the table at idx that are identifiers and do not start with
// "_" (unless the user typed one); only function values when `functions`.
void table_keys(lua_State* L, int idx, const std::string& partial, bool functions, Names* out) {
  if (lua_type(L, idx) != LUA_TTABLE) return;
  idx = lua_absindex(L, idx);
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    if (lua_type(L, -2) == LUA_TSTRING) {
      const char* k = lua_tostring(L, -2);
      bool hidden = k[0] == '_' && partial.empty();
      if (!hidden && starts_with(k, partial) && is_identifier(k) && !starts_with(k, "__") &&
          (!functions || lua_isfunction(L, -1)))
        out->insert(k);
    }
    lua_pop(L, 1);
  }
}

// The entries of an OrderedDict's key list (`_k`) held in field `reg` of idx.
void registry_keys(lua_State* L, int idx, const char* reg, const std::string& partial, Names* out) {
  const int top = lua_gettop(L);
  lua_getfield(L, idx, reg);
  if (lua_type(L, -1) == LUA_TTABLE && lua_getfield(L, -1, "_k") == LUA_TTABLE) {
    lua_Integer n = lua_Integer(lua_rawlen(L, -1));
    for (lua_Integer i = 1; i <= n; ++i) {
      if (lua_rawgeti(L, -1, i) == LUA_TSTRING) {
        const char* k = lua_tostring(L, -1);
        if (starts_with(k, partial) && is_identifier(k)) out->insert(k);
      }
      lua_pop(L, 1);
    }
  }
  lua_settop(L, top);
}

void tensor_members(lua_State* L, bool method, const std::string& partial, Names* out) {
  luaL_getmetatable(L, kTensorMT);
  int mt = lua_gettop(L);
  if (method) {
    lua_getfield(L, mt, "__methods");
    table_keys(L, -1, partial, true, out);
  } else if (lua_getfield(L, mt, "__fields") == LUA_TTABLE) {
    lua_Integer n = lua_Integer(lua_rawlen(L, -1));
    for (lua_Integer i = 1; i <= n; ++i) {
      if (lua_rawgeti(L, -1, i) == LUA_TSTRING && starts_with(lua_tostring(L, -1), partial))
        out->insert(lua_tostring(L, -1));
      lua_pop(L, 1);
    }
  }
  lua_settop(L, mt - 1);
}

// The methods of the class at idx and of its parents (U.class: a class's
// metatable's __index is its parent).
void class_methods(lua_State* L, int idx, const std::string& partial, Names* out) {
  const int top = lua_gettop(L);
  lua_pushvalue(L, idx);
  for (int depth = 0; depth < 16 && lua_type(L, -1) == LUA_TTABLE; ++depth) {
    table_keys(L, -1, partial, true, out);
    if (!lua_getmetatable(L, -1)) break;
    lua_getfield(L, -1, "__index");  // the parent class
    lua_replace(L, -3);
    lua_pop(L, 1);
  }
  lua_settop(L, top);
}

void value_members(lua_State* L, int idx, bool method, const std::string& partial, Names* out) {
  idx = lua_absindex(L, idx);
  const int top = lua_gettop(L);
  if (is_tensor(L, idx)) {
    tensor_members(L, method, partial, out);
    return;
  }
  if (is_module(L, idx)) {
    if (method) {
      table_keys(L, idx, partial, true, out);
    } else {
      for (const char* reg : {"_parameters", "_buffers", "_modules"}) {
        int before = lua_gettop(L);
        registry_keys(L, idx, reg, partial, out);
        lua_settop(L, before);
      }
      lua_pushnil(L);  // plain fields (in_features, training), not functions
      while (lua_next(L, idx)) {
        if (lua_type(L, -2) == LUA_TSTRING && !lua_isfunction(L, -1)) {
          const char* k = lua_tostring(L, -2);
          bool hidden = k[0] == '_' && partial.empty();
          if (!hidden && starts_with(k, partial) && is_identifier(k)) out->insert(k);
        }
        lua_pop(L, 1);
      }
    }
    if (method) {  // methods along the class chain
      lua_getmetatable(L, idx);
      lua_getfield(L, -1, "__class");
      class_methods(L, -1, partial, out);
    }
    lua_settop(L, top);
    return;
  }
  table_keys(L, idx, partial, method, out);
  lua_pushvalue(L, idx);
  for (int depth = 0; depth < 16 && lua_getmetatable(L, -1); ++depth) {
    int mt = lua_gettop(L);
    lua_getfield(L, mt, "__methods");
    table_keys(L, -1, partial, true, out);
    lua_pop(L, 1);
    if (lua_getfield(L, mt, "__index") != LUA_TTABLE) break;
    table_keys(L, -1, partial, method, out);
    lua_replace(L, mt - 1);  // the stack stays two deep: the __index table, then its metatable
    lua_settop(L, mt - 1);
  }
  lua_settop(L, top);
}

// ---- the kinds of completion ---------------------------------------------------

void file_names(std::string_view typed, Names* out) {
  std::string path(typed);
  size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string open_dir = dir.empty() ? "." : dir;
  if (starts_with(open_dir, "~/")) {
    const char* home = std::getenv("HOME");
    if (home != nullptr) open_dir = std::string(home) + open_dir.substr(1);
  }
  DIR* d = opendir(open_dir.c_str());
  if (d == nullptr) return;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    if (name[0] == '.' && (base.empty() || base[0] != '.')) continue;
    if (!starts_with(name, base)) continue;
    struct stat st {};
    bool is_dir = stat((open_dir + "/" + name).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    out->insert(dir + name + (is_dir ? "/" : ""));
  }
  closedir(d);
}

// Option names (`name=`) that the doc of the function at the stack top mentions.
void option_names(lua_State* L, const std::string& partial, Names* out) {
  int f = lua_gettop(L);
  if (lua_getglobal(L, "torch") == LUA_TTABLE && lua_getfield(L, -1, "_doc") == LUA_TFUNCTION) {
    lua_pushvalue(L, f);
    if (lua_pcall(L, 1, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING) {
      std::string doc = lua_tostring(L, -1);
      for (size_t i = 0; i < doc.size(); ++i) {
        if (doc[i] != '=' || i == 0 || (i + 1 < doc.size() && doc[i + 1] == '=') || doc[i - 1] == '=') continue;
        size_t b = i;
        while (b > 0 && ident_char(doc[b - 1])) --b;
        std::string name = doc.substr(b, i - b);
        if (!name.empty() && is_identifier(name.c_str()) && starts_with(name, partial)) out->insert(name + "=");
      }
    }
  }
  lua_settop(L, f);
}

// Inside `{...}` of a call (`f(a, {dev` or `f{a, dev`): the function, pushed.
bool option_callee(lua_State* L, std::string_view s, const Scan& sc, size_t word) {
  if (sc.open.empty() || s[sc.open.back()] != '{') return false;
  size_t brace = sc.open.back();
  size_t before = word;
  while (before > brace + 1 && std::isspace(static_cast<unsigned char>(s[before - 1]))) --before;
  if (before != brace + 1 && s[before - 1] != ',') return false;  // typing a value, not a name
  size_t end = brace;
  while (end > 0 && std::isspace(static_cast<unsigned char>(s[end - 1]))) --end;
  if (end == 0 || !ident_char(s[end - 1])) {  // not f{...}: the '(' around it
    if (sc.open.size() < 2 || s[sc.open[sc.open.size() - 2]] != '(') return false;
    end = sc.open[sc.open.size() - 2];
  }
  std::string_view callee = s.substr(chain_start(s, end), end - chain_start(s, end));
  size_t colon = callee.rfind(':');
  if (colon != std::string_view::npos) {  // x:sum{dim...: the method of x
    Kind kind = evaluate_chain(L, callee.substr(0, colon));
    if (kind == Kind::None) return false;
    std::string name(callee.substr(colon + 1));
    if (kind == Kind::Tensor || is_tensor(L, -1)) {
      if (kind == Kind::Value) lua_pop(L, 1);
      luaL_getmetatable(L, kTensorMT);
      lua_getfield(L, -1, "__methods");
      lua_getfield(L, -1, name.c_str());
      lua_replace(L, -3);
      lua_pop(L, 1);
    } else {
      lua_pushstring(L, name.c_str());
      if (!lookup(L, -2, -1)) {
        lua_pop(L, 2);
        return false;
      }
      lua_replace(L, -3);
      lua_pop(L, 1);
    }
    if (lua_isfunction(L, -1)) return true;
    lua_pop(L, 1);
    return false;
  }
  Kind kind = evaluate_chain(L, callee);
  if (kind != Kind::Value) {
    if (kind == Kind::Instance) lua_pop(L, 1);
    return false;
  }
  if (lua_isfunction(L, -1)) return true;
  lua_pop(L, 1);
  return false;
}

}  // namespace

Completions complete_line(lua_State* L, std::string_view s) {
  Completions result;
  const int top = lua_gettop(L);
  if (!lua_checkstack(L, 100)) return result;
  Scan sc = scan(s);
  if (sc.in_comment) return result;
  Names names;
  if (sc.in_string) {
    result.start = sc.string_start;
    file_names(s.substr(sc.string_start), &names);
    result.words.assign(names.begin(), names.end());
    return result;
  }
  size_t word = s.size();
  while (word > 0 && ident_char(s[word - 1])) --word;
  std::string partial(s.substr(word));
  if (!partial.empty() && std::isdigit(static_cast<unsigned char>(partial[0]))) return result;
  result.start = word;
  char sep = word > 0 ? s[word - 1] : '\0';
  if ((sep == '.' || sep == ':') && !(word > 1 && s[word - 2] == '.')) {
    size_t begin = chain_start(s, word - 1);
    Kind kind = evaluate_chain(L, s.substr(begin, word - 1 - begin));
    if (kind == Kind::Tensor) tensor_members(L, sep == ':', partial, &names);
    else if (kind == Kind::Instance && sep == ':') class_methods(L, -1, partial, &names);
    else if (kind == Kind::Value) value_members(L, -1, sep == ':', partial, &names);
  } else if (word > 0 && std::isdigit(static_cast<unsigned char>(s[word - 1]))) {
    return result;  // 1.5e<Tab>: a number
  } else {
    if (option_callee(L, s, sc, word)) option_names(L, partial, &names);
    if (names.empty()) {  // a global name or a keyword
      lua_pushglobaltable(L);
      table_keys(L, -1, partial, false, &names);
      for (const char* k : kKeywords)
        if (starts_with(k, partial)) names.insert(k);
    }
  }
  lua_settop(L, top);
  result.words.assign(names.begin(), names.end());
  return result;
}

}  // namespace gl::interp
