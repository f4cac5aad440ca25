#include "interpreter/progress.h"

#include <chrono>
#include <cstdio>
#include <string>
#include <sys/ioctl.h>
#include <unistd.h>

#include <lua.hpp>

#include "interpreter/display.h"
#include "interpreter/progress.lua.h"
#include "interpreter/terminal.h"

namespace gl::interp {
namespace {

int l_notebook(lua_State* L) {
  lua_pushboolean(L, has_display_sink());
  return 1;
}

int l_tty(lua_State* L) {
  lua_pushboolean(L, is_terminal(stderr));
  return 1;
}

int l_columns(lua_State* L) {
  struct winsize size {};
  lua_pushinteger(L, ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 ? size.ws_col : 80);
  return 1;
}

int l_clock(lua_State* L) {
  using namespace std::chrono;
  lua_pushnumber(L, duration<double>(steady_clock::now().time_since_epoch()).count());
  return 1;
}

constexpr const char* kDoc =
    "torch.utils.progress(iterable [, {desc=, total=, leave=true}]): tqdm's progress bar around a loop.\n"
    "  for batch in torch.utils.progress(loader) do ... end        -- a DataLoader: #loader steps\n"
    "  for i, batch in torch.utils.progress(loader:enumerate(), {total=#loader}) do ... end\n"
    "  iterable: a DataLoader (or anything with :iter() and #), a list (gives i, v), an iterator\n"
    "  function (its values pass through; give total=), or an int n (gives 1..n); nil with total=\n"
    "  makes a bar you move with bar:update(n).\n"
    "  Shows count/total, percentage, elapsed<remaining and the rate; bar:set_postfix{loss=...}\n"
    "  adds fields, bar:set_description(s) changes desc, bar:write(s) prints above the bar,\n"
    "  bar:close() ends it (a loop's end, break or error closes it).\n"
    "  On a terminal: one line on stderr, redrawn with \\r at most every 0.1 s. When stderr is not\n"
    "  a terminal (logs, pipes, transcripts): nothing until the end, then the final line without\n"
    "  times, the same on every run. In a notebook: an output updated in place.\n"
    "  leave=false removes the bar when it ends.";

}  // namespace

void open_progress(lua_State* L) {
  const int top = lua_gettop(L);
  if (luaL_loadbuffer(L, kProgressLua, std::char_traits<char>::length(kProgressLua), "=progress") != LUA_OK) {
    lua_settop(L, top);
    return;
  }
  lua_newtable(L);
  lua_pushcfunction(L, l_notebook);
  lua_setfield(L, -2, "notebook");
  lua_pushcfunction(L, l_tty);
  lua_setfield(L, -2, "tty");
  lua_pushcfunction(L, l_columns);
  lua_setfield(L, -2, "columns");
  lua_pushcfunction(L, l_clock);
  lua_setfield(L, -2, "clock");
  lua_call(L, 1, 1);  // the progress function
  lua_getglobal(L, "torch");
  lua_getfield(L, -1, "utils");
  lua_pushvalue(L, -3);
  lua_setfield(L, -2, "progress");
  // torch.utils._notebook(): whether display() reaches a notebook (the plot
  // module draws to a file and sparklines otherwise).
  lua_pushcfunction(L, l_notebook);
  lua_setfield(L, -2, "_notebook");
  lua_getfield(L, -2, "_set_doc");
  if (lua_isfunction(L, -1)) {
    lua_pushvalue(L, -4);
    lua_pushstring(L, kDoc);
    lua_call(L, 2, 0);
  }
  lua_settop(L, top);
}

}  // namespace gl::interp
