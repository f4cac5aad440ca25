// The REPL's echo: torch._echo shows a chunk's results as IPython displays
// an expression (Note [IPython's pretty printer]); and the small text helpers
// the Lua side uses (torch._pyfloat, torch._tty_rows).
#include <string>
#include <vector>
#include <sys/ioctl.h>
#include <unistd.h>
#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "bindings/repr_walk.h"

namespace gl::lt {

namespace {

// torch.return_types.NAME(\nfield1=..., \nfield2=...) for the pair at first,
// first + 1 (PyTorch's own repr of its structseqs); empty if not one.
std::string named_tuple_text(lua_State* L, int first) {
  if (!push_named_tuple_record(L, first)) return "";
  const int rec = lua_gettop(L);
  lua_rawgeti(L, rec, 5);
  const bool pair = lua_rawequal(L, -1, first + 1);
  lua_pop(L, 1);
  std::string out;
  if (pair) {
    auto repr_of = [&](int idx) {
      Pretty plain(true);
      ReprCtx ctx(plain);
      pretty_value(L, idx, ctx);
      return plain.finish();
    };
    lua_rawgeti(L, rec, 1);
    lua_rawgeti(L, rec, 2);
    lua_rawgeti(L, rec, 3);
    out = std::string("torch.return_types.") + lua_tostring(L, -3) + "(\n" + lua_tostring(L, -2) + "=" +
          repr_of(first) + ",\n" + lua_tostring(L, -1) + "=" + repr_of(first + 1) + ")";
    lua_pop(L, 3);
  }
  lua_pop(L, 1);
  return out;
}

// torch._echo(...): the text the REPL echoes for a chunk's results, as IPython
// displays an expression: one value as itself, several as a tuple (`x, y` or
// torch.unique(x, return_counts=True) there), a named tuple's two results as one value.
int echo(lua_State* L) {
  const int n = lua_gettop(L);
  {
    std::vector<std::string> named(size_t(n) + 2);
    int items = 0;
    for (int i = 1; i <= n; ++i, ++items)
      if (i < n && !(named[size_t(i)] = named_tuple_text(L, i)).empty()) ++i;
    Pretty p(false);
    ReprCtx ctx(p);
    auto item = [&](int i) {  // prints the item at i, returns how many results it took
      if (named[size_t(i)].empty()) {
        pretty_value(L, i, ctx);
        return 1;
      }
      p.begin_group();
      p.lines(named[size_t(i)]);
      p.end_group();
      return 2;
    };
    if (items == 1) {
      item(1);
    } else {
      p.begin_group();
      p.begin_group(1, "(");
      for (int i = 1, k = 1; i <= n; ++k) {
        if (!next_item(ctx, k)) break;
        i += item(i);
      }
      p.end_group(1, ")");
      p.end_group();
    }
    const std::string out = p.finish();
    lua_pushlstring(L, out.data(), out.size());
  }
  return 1;
}

// torch._tuple(t): marks the array t as a Python tuple and returns it.
int tuple_fn(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  mark_tuple(L, 1);
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

void open_repr(lua_State* L) {
  // Through the trampoline: a C++ exception (an echo too long for memory) becomes a Lua
  // error; raised through Lua's own C frames it was std::terminate (found by fuzz_lua).
  push_function(L, echo, nullptr);
  lua_setfield(L, -2, "_echo");
  lua_pushcfunction(L, pyfloat);
  lua_setfield(L, -2, "_pyfloat");
  lua_pushcfunction(L, tty_rows);
  lua_setfield(L, -2, "_tty_rows");
  lua_pushcfunction(L, tuple_fn);
  lua_setfield(L, -2, "_tuple");
  push_function(L, echo, nullptr);  // the REPL's echo, out of reach of a reassigned `torch`
  lua_setfield(L, LUA_REGISTRYINDEX, "gpulab.echo");
}

}  // namespace gl::lt
