// repr(): what the REPL echoes, as Python's repr and IPython's display would
// show it. Floats and strings as Python's repr (py_text.cpp), tables as
// list/dict literals (capped, cycles shown as [...]), namespaces as a one-line
// summary, and the named tuples that max/min/linalg.qr return
// (named_tuple.cpp) as torch.return_types.NAME(...).
//
// These run Lua code (__tostring), so they are plain lua_CFunctions rather
// than trampolined ones: every __tostring runs under lua_pcall, and the only
// C++ objects alive die before the function returns.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include <sys/ioctl.h>
#include <unistd.h>
#include "bindings/bindings.h"
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "bindings/udata.h"
#include "tensor/core/format.h"

namespace gl::lt {

namespace {

constexpr int kMaxItems = 1000;  // IPython's max_seq_length, here for the whole echo

struct Ctx {
  int budget = kMaxItems;
  std::vector<const void*> path;  // tables being printed: a cycle prints [...]
};

void repr_into(lua_State* L, int idx, std::string& out, Ctx& ctx);

int tolstring_call(lua_State* L) {
  luaL_tolstring(L, 1, nullptr);
  return 1;
}

// tostring(v) under pcall: a failing __tostring gives a placeholder, not an error.
void tostring_into(lua_State* L, int idx, std::string& out) {
  lua_pushcfunction(L, tolstring_call);
  lua_pushvalue(L, idx);
  const bool ok = lua_pcall(L, 1, 1, 0) == LUA_OK;
  size_t len = 0;
  const char* s = lua_tolstring(L, -1, &len);
  if (!ok) out += "<repr failed: ";
  if (s) out.append(s, len);
  if (!ok) out += ">";
  lua_pop(L, 1);
}

bool is_identifier(const char* s) {
  if (!s || !(std::isalpha(static_cast<unsigned char>(*s)) || *s == '_')) return false;
  for (; *s; ++s)
    if (!(std::isalnum(static_cast<unsigned char>(*s)) || *s == '_')) return false;
  return true;
}

// The dotted global name of the value at idx (a table or a function), found by
// a raw walk of the globals three levels deep; empty when it has none.
std::string global_name(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  struct Node {
    std::string name;
    int depth;
  };
  std::vector<Node> queue{{"", 0}};
  lua_newtable(L);  // tables already visited
  const int seen = lua_gettop(L);
  lua_newtable(L);  // name -> table, for the walk
  const int tables = lua_gettop(L);
  lua_pushglobaltable(L);
  lua_setfield(L, tables, "");
  std::string found;
  for (size_t q = 0; q < queue.size() && found.empty(); ++q) {
    const Node node = queue[q];
    lua_getfield(L, tables, node.name.c_str());
    const int t = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, t)) {
      if (lua_type(L, -2) == LUA_TSTRING && is_identifier(lua_tostring(L, -2))) {
        const std::string key = lua_tostring(L, -2);
        const std::string name = node.name.empty() ? key : node.name + "." + key;
        if (lua_rawequal(L, -1, idx) && found.empty()) found = name;
        if (lua_type(L, -1) == LUA_TTABLE && node.depth < 3 && key != "_G" && key != "package" && key != "loaded") {
          lua_pushvalue(L, -1);
          if (lua_rawget(L, seen) == LUA_TNIL) {
            lua_pushvalue(L, -2);
            lua_pushboolean(L, 1);
            lua_rawset(L, seen);
            lua_pushvalue(L, -2);
            lua_setfield(L, tables, name.c_str());
            queue.push_back({name, node.depth + 1});
          }
          lua_pop(L, 1);
        }
      }
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 2);
  return found;
}

// A namespace: a named table of functions and sub-tables (torch, nn, math).
bool namespace_summary(lua_State* L, int idx, std::string& out) {
  if (lua_rawlen(L, idx) > 0) return false;
  if (lua_getmetatable(L, idx)) {  // classes and objects print otherwise
    lua_pop(L, 1);
    return false;
  }
  int functions = 0, tables = 0, other = 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    const int t = lua_type(L, -1);
    (t == LUA_TFUNCTION ? functions : t == LUA_TTABLE ? tables : other) += 1;
    lua_pop(L, 1);
  }
  const int total = functions + tables + other;
  if (functions == 0 || total < 4 || (functions + tables) * 4 < total * 3) return false;
  std::string name = global_name(L, idx);
  if (name == "torch.Tensor") {  // the class of tensors, as Python shows it
    out += "<class 'torch.Tensor'>";
    return true;
  }
  if (name.empty()) {
    if (functions < 8) return false;
    name = "a table";
  } else {
    name = "module '" + name + "'";
  }
  auto count = [](int n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
  out += "<" + name + ": " + count(functions, "function");
  if (tables) out += ", " + count(tables, "table");
  if (other) out += ", " + count(other, "other value");
  out += name == "a table" ? ">" : "; help(" + name.substr(8, name.size() - 9) + ") lists them>";
  return true;
}

bool take_item(Ctx& ctx, std::string& out, bool first) {
  if (ctx.budget <= 0) {
    out += first ? "..." : ", ...";
    return false;
  }
  --ctx.budget;
  if (!first) out += ", ";
  return true;
}

// Keys of a table's hash part, sorted: numbers, then strings, then the rest
// (a plain Lua table keeps no insertion order; sorting makes echoes stable).
void sorted_keys(lua_State* L, int idx, lua_Integer n, int keys) {
  lua_Integer count = 0;
  lua_pushnil(L);
  while (lua_next(L, idx)) {
    lua_pop(L, 1);
    if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1 && lua_tointeger(L, -1) <= n) continue;
    lua_pushvalue(L, -1);
    lua_rawseti(L, keys, ++count);
  }
  // Insertion sort through the stack: key lists here are small (echo-sized).
  auto rank = [&](int i) {
    int t = lua_type(L, i);
    return t == LUA_TNUMBER ? 0 : t == LUA_TSTRING ? 1 : 2;
  };
  for (lua_Integer i = 2; i <= count; ++i) {
    for (lua_Integer j = i; j > 1; --j) {
      lua_rawgeti(L, keys, j - 1);
      lua_rawgeti(L, keys, j);
      const int ra = rank(-2), rb = rank(-1);
      bool swap = rb < ra;
      if (ra == rb && ra < 2) swap = lua_compare(L, -1, -2, LUA_OPLT);  // numbers and strings never raise
      if (!swap) {
        lua_pop(L, 2);
        break;
      }
      lua_rawseti(L, keys, j - 1);
      lua_rawseti(L, keys, j);
    }
  }
}

void table_repr(lua_State* L, int idx, std::string& out, Ctx& ctx) {
  const void* self = lua_topointer(L, idx);
  const lua_Integer n = lua_Integer(lua_rawlen(L, idx));
  lua_newtable(L);
  const int keys = lua_gettop(L);
  sorted_keys(L, idx, n, keys);
  const lua_Integer extra = lua_Integer(lua_rawlen(L, keys));
  const bool list = extra == 0 && n > 0;
  if (std::find(ctx.path.begin(), ctx.path.end(), self) != ctx.path.end()) {
    out += list ? "[...]" : "{...}";
    lua_pop(L, 1);
    return;
  }
  if (ctx.path.size() >= 64) {
    out += list ? "[...]" : "{...}";  // deep enough for any echo
    lua_pop(L, 1);
    return;
  }
  ctx.path.push_back(self);
  out += list ? "[" : "{";
  bool first = true;
  for (lua_Integer i = 1; i <= n + extra; ++i) {
    if (!take_item(ctx, out, first)) break;
    first = false;
    if (i <= n) {
      if (!list) out += std::to_string(i) + ": ";
      lua_rawgeti(L, idx, i);
    } else {
      lua_rawgeti(L, keys, i - n);
      repr_into(L, lua_gettop(L), out, ctx);
      out += ": ";
      lua_rawget(L, idx);
    }
    repr_into(L, lua_gettop(L), out, ctx);
    lua_pop(L, 1);
  }
  out += list ? "]" : "}";
  ctx.path.pop_back();
  lua_pop(L, 1);
}

void repr_into(lua_State* L, int idx, std::string& out, Ctx& ctx) {
  idx = lua_absindex(L, idx);
  if (Tensor* t = to_tensor(L, idx)) {
    try {
      out += tensor_repr(*t);
    } catch (const std::exception& e) { out += std::string("<repr failed: ") + e.what() + ">"; }
    return;
  }
  if (auto* d = ud_test<Device>(L, idx, UdTag::Device)) {
    out += d->repr();
    return;
  }
  switch (lua_type(L, idx)) {
    case LUA_TNIL: out += "None"; return;  // as Python shows them in a tuple or a list
    case LUA_TBOOLEAN: out += lua_toboolean(L, idx) ? "True" : "False"; return;
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) out += std::to_string(lua_tointeger(L, idx));
      else out += py_float_repr(lua_tonumber(L, idx));
      return;
    case LUA_TSTRING: {
      size_t len = 0;
      const char* s = lua_tolstring(L, idx, &len);
      out += py_str_repr(s, len);
      return;
    }
    case LUA_TTABLE:
      if (luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL) {
        lua_pop(L, 1);
        break;
      }
      if (!namespace_summary(L, idx, out)) table_repr(L, idx, out, ctx);
      return;
    case LUA_TFUNCTION: {
      // help alone shows the introduction (00_help.lua registers it).
      lua_getfield(L, LUA_REGISTRYINDEX, "gpulab.help");
      const bool is_help = lua_rawequal(L, -1, idx);
      lua_pop(L, 1);
      if (is_help) {
        lua_getfield(L, LUA_REGISTRYINDEX, "gpulab.help_intro");
        if (const char* s = lua_tostring(L, -1)) out += s;
        lua_pop(L, 1);
        return;
      }
      const std::string name = global_name(L, idx);
      if (!name.empty()) {
        out += (lua_iscfunction(L, idx) ? "<built-in function " : "<function ") + name + ">";
        return;
      }
      break;
    }
    default: break;
  }
  tostring_into(L, idx, out);
}

int named_tuple_repr(lua_State* L, int first, std::string& out) {
  if (!push_named_tuple_record(L, first)) return 0;
  const int rec = lua_gettop(L);
  lua_rawgeti(L, rec, 5);
  const bool pair = lua_rawequal(L, -1, first + 1);
  lua_pop(L, 1);
  if (!pair) {
    lua_pop(L, 1);
    return 0;
  }
  Ctx ctx;
  lua_rawgeti(L, rec, 1);
  out += std::string("torch.return_types.") + lua_tostring(L, -1) + "(\n";
  lua_rawgeti(L, rec, 2);
  out += std::string(lua_tostring(L, -1)) + "=";
  repr_into(L, first, out, ctx);
  lua_rawgeti(L, rec, 3);
  out += std::string(",\n") + lua_tostring(L, -1) + "=";
  repr_into(L, first + 1, out, ctx);
  out += ")";
  lua_pop(L, 4);
  return 2;
}

// Note [Echo of several values]: IPython's pretty printer (what the
// tutorials' notebooks show): "(a, b)" on one line when that fits in 79
// columns and no value spans lines; else one value a line after "(",
// indented by one, their own continuation lines one further.
std::string tuple_text(const std::vector<std::string>& items) {
  std::string line = "(";
  for (size_t i = 0; i < items.size(); ++i) line += (i ? ", " : "") + items[i];
  line += ")";
  if (line.size() <= 79 && line.find('\n') == std::string::npos) return line;
  std::string out = "(";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ",\n ";
    for (char c : items[i]) {
      out += c;
      if (c == '\n') out += ' ';
    }
  }
  return out + ")";
}

// torch._echo(...): the text the REPL echoes for a chunk's results, as
// Python echoes an expression: one value as its repr, several as a tuple
// (Note [Echo of several values]; `x, y` or torch.unique(x, return_counts=True)
// there), a named tuple's two results as one value.
int echo(lua_State* L) {
  const int n = lua_gettop(L);
  {
    std::vector<std::string> items;
    for (int i = 1; i <= n; ++i) {
      std::string item;
      if (i < n && named_tuple_repr(L, i, item) == 2) ++i;
      else {
        Ctx ctx;
        repr_into(L, i, item, ctx);
      }
      items.push_back(std::move(item));
    }
    std::string out = items.size() == 1 ? items[0] : tuple_text(items);
    lua_pushlstring(L, out.data(), out.size());
  }
  return 1;
}

// torch._tty_rows(): the terminal's rows when stdout is a terminal, else nil
// (help pages long text only on a terminal).
int tty_rows(lua_State* L) {
  struct winsize ws {};
  if (!isatty(STDOUT_FILENO)) return 0;
  lua_pushinteger(L, ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 ? ws.ws_row : 24);
  return 1;
}

int pyfloat(lua_State* L) {
  if (lua_isinteger(L, 1)) {
    lua_pushstring(L, std::to_string(lua_tointeger(L, 1)).c_str());
  } else {
    const std::string s = py_float_repr(luaL_checknumber(L, 1));
    lua_pushlstring(L, s.data(), s.size());
  }
  return 1;
}

}  // namespace

int repr(lua_State* L) {
  luaL_checkany(L, 1);
  lua_settop(L, 1);
  {
    std::string out;
    Ctx ctx;
    repr_into(L, 1, out, ctx);
    lua_pushlstring(L, out.data(), out.size());
  }
  return 1;
}

void open_repr(lua_State* L) {
  // Through the trampoline: a C++ exception (an echo too long for memory) becomes a Lua
  // error; raised through Lua's own C frames it was std::terminate (found by fuzz_lua).
  push_function(L, echo, nullptr);
  lua_setfield(L, -2, "_echo");
  lua_pushcfunction(L, pyfloat);
  lua_setfield(L, -2, "_pyfloat");
  lua_pushcfunction(L, tty_rows);
  lua_setfield(L, -2, "_tty_rows");
  push_function(L, echo, nullptr);  // the REPL's echo, out of reach of a reassigned `torch`
  lua_setfield(L, LUA_REGISTRYINDEX, "gpulab.echo");
}

}  // namespace gl::lt
