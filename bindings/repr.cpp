// repr(): Python's repr of a value, and the REPL's echo: what IPython's
// display shows (Note [IPython's pretty printer], pretty.cpp). One walk of the
// value serves both: floats and strings as Python's repr (py_text.cpp), tables
// as list/dict literals (capped, cycles shown as [...]), tuples, the objects
// that describe themselves with __pretty (Note [__pretty]), namespaces as a
// one-line summary (repr_names.cpp). The echo itself is echo.cpp.
//
// These run Lua code (__tostring, __pretty), so they are plain lua_CFunctions
// rather than trampolined ones: every such call runs under lua_pcall, and the
// only C++ objects alive die before the function returns.
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
#include "bindings/repr_walk.h"
#include "bindings/udata.h"
#include "tensor/core/format.h"

namespace gl::lt {

namespace {

constexpr int kMaxDepth = 64;  // deep enough for any echo
constexpr const char* kTuple = "tuple";

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

std::string tostring_of(lua_State* L, int idx) {
  std::string s;
  tostring_into(L, idx, s);
  return s;
}

// An object's text through tostring. Python's default repr, <NAME object at
// 0x...>, is shown by IPython as <NAME at 0x...> (its _default_pprint): so a
// grad_fn echoes <MulBackward0 at 0x...>, as in a notebook;
std::string object_text(lua_State* L, int idx, const ReprCtx& ctx) {
  std::string s = tostring_of(L, idx);
  // and a class, <class 'torch.nn.modules.linear.Linear'>, by its name (_type_pprint)
  if (!ctx.p.plain() && s.size() > 10 && s.compare(0, 8, "<class '") == 0 && s.compare(s.size() - 2, 2, "'>") == 0 &&
      s.find('\'', 8) == s.size() - 2)
    return s.substr(8, s.size() - 10);
  const size_t at = s.find(" object at 0x");
  if (!ctx.p.plain() && s.size() > 2 && s.front() == '<' && s.back() == '>' && at != std::string::npos &&
      s.find_first_of(" \n", 1) == at && s.find(' ', at + 11) == std::string::npos)
    s.erase(at, 7);
  return s;
}

// Enters the table at idx, or prints `mark` (a cycle, or past the depth cap) and returns false.
bool enter(lua_State* L, int idx, ReprCtx& ctx, const char* mark) {
  const void* self = lua_topointer(L, idx);
  if (ctx.path.size() >= size_t(kMaxDepth) || std::find(ctx.path.begin(), ctx.path.end(), self) != ctx.path.end()) {
    ctx.p.text(mark);
    return false;
  }
  ctx.path.push_back(self);
  return true;
}

}  // namespace

// IPython's _enumerate (with the echo's budget in place of max_seq_length).
bool next_item(ReprCtx& ctx, lua_Integer i) {
  if (i > 1) {
    ctx.p.text(",");
    ctx.p.breakable();
  }
  if (ctx.budget <= 0) {
    ctx.p.text("...");
    return false;
  }
  --ctx.budget;
  return true;
}

namespace {

// _seq_pprinter_factory: items[1..n] as [a, b] or (a, b), (a,) for one.
void seq(lua_State* L, int items, lua_Integer n, bool tuple, ReprCtx& ctx) {
  ctx.p.begin_group(1, tuple ? "(" : "[");
  for (lua_Integer i = 1; i <= n; ++i) {
    if (!next_item(ctx, i)) break;
    lua_rawgeti(L, items, i);
    pretty_value(L, lua_gettop(L), ctx);
    lua_pop(L, 1);
  }
  if (tuple && n == 1) ctx.p.text(",");
  ctx.p.end_group(1, tuple ? ")" : "]");
}

// _dict_pprinter_factory: pairs[i] = {key, value}, as {key: value, ...}.
void dict(lua_State* L, int pairs, ReprCtx& ctx) {
  ctx.p.begin_group(1, "{");
  const lua_Integer n = lua_Integer(lua_rawlen(L, pairs));
  for (lua_Integer i = 1; i <= n; ++i) {
    if (!next_item(ctx, i)) break;
    lua_rawgeti(L, pairs, i);
    const int kv = lua_gettop(L);
    if (lua_type(L, kv) == LUA_TTABLE) {
      lua_rawgeti(L, kv, 1);
      pretty_value(L, lua_gettop(L), ctx);
      ctx.p.text(": ");
      lua_rawgeti(L, kv, 2);
      pretty_value(L, lua_gettop(L), ctx);
    }
    lua_settop(L, kv - 1);
  }
  ctx.p.end_group(1, "}");
}

// IPython's CallExpression: NAME(arg, ...), continued under the first argument.
void call(const std::string& name, lua_State* L, int args, lua_Integer n, ReprCtx& ctx) {
  const std::string prefix = name + "(";
  ctx.p.begin_group(int(prefix.size()), prefix);
  for (lua_Integer i = 1; i <= n; ++i) {
    if (i > 1) {
      ctx.p.text(",");
      ctx.p.breakable();
    }
    lua_rawgeti(L, args, i);
    pretty_value(L, lua_gettop(L), ctx);
    lua_pop(L, 1);
  }
  ctx.p.end_group(int(prefix.size()), ")");
}

// A table's length for __pretty and a tuple: its field n if it has one (a list of
// Nones, a tuple that ends in nil), else #.
lua_Integer count_of(lua_State* L, int t) {
  lua_pushliteral(L, "n");
  const bool has_n = lua_rawget(L, t) == LUA_TNUMBER && lua_isinteger(L, -1);
  const lua_Integer n = has_n ? lua_tointeger(L, -1) : lua_Integer(lua_rawlen(L, t));
  lua_pop(L, 1);
  return std::max<lua_Integer>(n, 0);
}

// Note [__pretty]: a Lua object that is one of Python's containers (an
// OrderedDict, a dict, parameters()' list) has a metafield __pretty(self)
// returning what it is: 'list', items | 'tuple', items | 'dict', {{k, v}, ...}
// | 'call', NAME, args (IPython's CallExpression: OrderedDict([...])). The one
// walk here then prints it both as Python's repr and as IPython's display, so
// its __tostring is repr(self). False (nothing printed) if it cannot describe itself.
bool described(lua_State* L, int idx, ReprCtx& ctx) {
  const int top = lua_gettop(L);
  if (luaL_getmetafield(L, idx, "__pretty") == LUA_TNIL) return false;
  lua_pushvalue(L, idx);
  if (lua_pcall(L, 1, 3, 0) != LUA_OK || lua_type(L, top + 1) != LUA_TSTRING) {
    lua_settop(L, top);
    return false;
  }
  const std::string kind = lua_tostring(L, top + 1);
  const int a = top + 2, b = top + 3;
  const bool is_seq = (kind == "list" || kind == "tuple" || kind == "dict") && lua_type(L, a) == LUA_TTABLE;
  const bool is_call = kind == "call" && lua_type(L, a) == LUA_TSTRING && lua_type(L, b) == LUA_TTABLE;
  if (!is_seq && !is_call) {
    lua_settop(L, top);
    return false;
  }
  const std::string name = is_call ? lua_tostring(L, a) : "";
  const std::string mark = is_call ? name + "(...)" : kind == "list" ? "[...]" : kind == "tuple" ? "(...)" : "{...}";
  if (enter(L, idx, ctx, mark.c_str())) {
    if (is_call) call(name, L, b, count_of(L, b), ctx);
    else if (kind == "dict") dict(L, a, ctx);
    else seq(L, a, count_of(L, a), kind == "tuple", ctx);
    ctx.path.pop_back();
  }
  lua_settop(L, top);
  return true;
}

bool is_tuple(lua_State* L, int idx) {
  if (!lua_getmetatable(L, idx)) return false;
  luaL_getmetatable(L, kTuple);
  const bool same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same;
}

// A plain table: a list when it is a sequence 1..n and nothing else, else a
// dict of its keys (the sequence's first, then the rest sorted).
void plain_table(lua_State* L, int idx, ReprCtx& ctx) {
  const int top = lua_gettop(L);
  // The sequence is 1..n without a hole: # may name any border ({[2] = x} can say 2).
  lua_Integer n = 0;
  for (const lua_Integer len = lua_Integer(lua_rawlen(L, idx)); n < len; ++n) {
    const bool hole = lua_rawgeti(L, idx, n + 1) == LUA_TNIL;
    lua_pop(L, 1);
    if (hole) break;
  }
  lua_newtable(L);
  const int keys = lua_gettop(L);
  sorted_keys(L, idx, n, keys);
  const lua_Integer extra = lua_Integer(lua_rawlen(L, keys));
  const bool list = extra == 0 && n > 0;
  if (enter(L, idx, ctx, list ? "[...]" : "{...}")) {
    if (list) {
      seq(L, idx, n, false, ctx);
    } else {
      lua_createtable(L, int(n + extra), 0);
      const int pairs = lua_gettop(L);
      for (lua_Integer i = 1; i <= n + extra; ++i) {
        lua_createtable(L, 2, 0);
        if (i <= n) lua_pushinteger(L, i);
        else lua_rawgeti(L, keys, i - n);
        lua_pushvalue(L, -1);
        lua_rawget(L, idx);
        lua_rawseti(L, -3, 2);
        lua_rawseti(L, -2, 1);
        lua_rawseti(L, pairs, i);
      }
      dict(L, pairs, ctx);
    }
    ctx.path.pop_back();
  }
  lua_settop(L, top);
}

void table_value(lua_State* L, int idx, ReprCtx& ctx) {
  if (is_tuple(L, idx)) {
    if (enter(L, idx, ctx, "(...)")) {
      seq(L, idx, count_of(L, idx), true, ctx);
      ctx.path.pop_back();
    }
    return;
  }
  if (described(L, idx, ctx)) return;
  if (luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL) {
    lua_pop(L, 1);
    ctx.p.lines(object_text(L, idx, ctx));
    return;
  }
  std::string summary;
  if (namespace_summary(L, idx, summary)) ctx.p.lines(summary);
  else plain_table(L, idx, ctx);
}

std::string function_text(lua_State* L, int idx) {
  // help alone shows the introduction (00_help.lua registers it).
  lua_getfield(L, LUA_REGISTRYINDEX, "gpulab.help");
  const bool is_help = lua_rawequal(L, -1, idx);
  lua_pop(L, 1);
  if (is_help) {
    lua_getfield(L, LUA_REGISTRYINDEX, "gpulab.help_intro");
    std::string s = lua_tostring(L, -1) ? lua_tostring(L, -1) : "";
    lua_pop(L, 1);
    return s;
  }
  const std::string name = global_name(L, idx);
  if (!name.empty()) return (lua_iscfunction(L, idx) ? "<built-in function " : "<function ") + name + ">";
  return tostring_of(L, idx);
}

}  // namespace

// IPython's p.pretty(obj): each value in a group of its own.
void pretty_value(lua_State* L, int idx, ReprCtx& ctx) {
  idx = lua_absindex(L, idx);
  Pretty& p = ctx.p;
  p.begin_group();
  if (Tensor* t = to_tensor(L, idx)) {
    try {
      p.lines(tensor_repr(*t));
    } catch (const std::exception& e) { p.text(std::string("<repr failed: ") + e.what() + ">"); }
  } else if (auto* d = ud_test<Device>(L, idx, UdTag::Device)) {
    p.lines(d->repr());
  } else {
    switch (lua_type(L, idx)) {
      case LUA_TNIL: p.text("None"); break;  // as Python shows them in a tuple or a list
      case LUA_TBOOLEAN: p.text(lua_toboolean(L, idx) ? "True" : "False"); break;
      case LUA_TNUMBER:
        p.text(lua_isinteger(L, idx) ? std::to_string(lua_tointeger(L, idx)) : py_float_repr(lua_tonumber(L, idx)));
        break;
      case LUA_TSTRING: {
        size_t len = 0;
        const char* s = lua_tolstring(L, idx, &len);
        p.text(py_str_repr(s, len));
        break;
      }
      case LUA_TTABLE: table_value(L, idx, ctx); break;
      case LUA_TFUNCTION: p.lines(function_text(L, idx)); break;
      default: p.lines(object_text(L, idx, ctx)); break;
    }
  }
  p.end_group();
}

int repr(lua_State* L) {
  luaL_checkany(L, 1);
  lua_settop(L, 1);
  {
    Pretty plain(true);
    ReprCtx ctx(plain);
    pretty_value(L, 1, ctx);
    const std::string out = plain.finish();
    lua_pushlstring(L, out.data(), out.size());
  }
  return 1;
}

void mark_tuple(lua_State* L, int idx) {
  idx = lua_absindex(L, idx);
  if (luaL_newmetatable(L, kTuple)) {  // __name "tuple": Lua's type errors say "got tuple"
    lua_pushcfunction(L, repr);
    lua_setfield(L, -2, "__tostring");
  }
  lua_setmetatable(L, idx);
}

int push_tensor_tuple(lua_State* L, const std::vector<Tensor>& ts) {
  lua_createtable(L, int(ts.size()), 0);
  for (size_t i = 0; i < ts.size(); ++i) {
    push_tensor(L, ts[i]);
    lua_rawseti(L, -2, lua_Integer(i + 1));
  }
  mark_tuple(L, -1);
  return 1;
}

}  // namespace gl::lt
