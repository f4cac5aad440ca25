#include "interpreter/session.h"

#include <cstring>

#include <lua.hpp>

#include "bindings/bindings.h"
#include "interpreter/display.h"
#include "interpreter/interrupt.h"
#include "interpreter/terminal.h"

namespace gl::interp {
namespace {

// Leaves the error value at index 1 as a string on the top of the stack (no
// C++ objects here: Lua errors longjmp).
const char* error_text(lua_State* L) {
  const char* msg = lua_tostring(L, 1);
  if (msg != nullptr) return msg;
  if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return lua_tostring(L, -1);
  return lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
}

// The error of a script, as lua.c prints it, with the REPL's hint for a
// Python habit (registry['gpulab.repl'].script_hint) under the message.
int traceback_handler(lua_State* L) {
  const char* msg = error_text(L);
  if (lua_getfield(L, LUA_REGISTRYINDEX, "gpulab.repl") == LUA_TTABLE &&
      lua_getfield(L, -1, "script_hint") == LUA_TFUNCTION) {
    lua_pushstring(L, msg);
    if (lua_pcall(L, 1, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING)
      msg = lua_pushfstring(L, "%s\nhint: %s", msg, lua_tostring(L, -1));
  }
  luaL_traceback(L, L, msg, 1);
  return 1;
}

int message_handler(lua_State* L) {
  const char* msg = error_text(L);
  lua_pushstring(L, msg);
  return 1;
}

}  // namespace

lua_State* open_session(const SessionOptions& options) {
  lua_State* L = luaL_newstate();
  if (L == nullptr) {
    write_cli_error("cannot create state: not enough memory");
    return nullptr;
  }
  luaL_openlibs(L);
  // Note [Generational collector]: a tensor is a small userdata in front of
  // C++ memory the collector cannot see, and code that makes many small ones
  // (a loop of 1-element ops, then products) left the incremental collector
  // in a long cycle over their boxes while each 40 KB product waited for it:
  // 100x100 products took 26 us instead of 10, with 45,000 page faults. Lua
  // 5.4's generational mode collects such young garbage in minor collections.
  // Its parameters: a minor collection when the heap has grown by 100% (Lua's
  // default, 20%, collected the boxes of a loop of small ops too often), a
  // major one at 150% (at 100%, each product's collector debt, bindings/luaT.cpp,
  // brought one every few products: d2l's loop of products ran at 18.5 ms
  // instead of 14). collectgarbage("incremental") switches back.
  lua_gc(L, LUA_GCGEN, 100, 150);
  lua_pushcfunction(L, gl::bindings::open);
  if (protected_call(L, 0, 0, ErrorStyle::Traceback) != LUA_OK) {
    write_cli_error("cannot load the torch library: " + pop_error(L));
    lua_close(L);
    return nullptr;
  }
  lua_pushcfunction(L, open_display);
  if (protected_call(L, 0, 0, ErrorStyle::Traceback) != LUA_OK) {
    write_cli_error("cannot set up display(): " + pop_error(L));
    lua_close(L);
    return nullptr;
  }
  install_coroutine_tracking(L);
  if (options.seed) {
    std::string code = "torch.manual_seed(" + *options.seed + ")";
    if (!run_string(L, code, "=--seed", ErrorStyle::MessageOnly)) {
      lua_close(L);
      return nullptr;
    }
  }
  // What %who leaves out: the names the session starts with (06_repl_who.lua).
  if (!run_string(L, "torch._util.repl.hide_namespace()", "=session", ErrorStyle::MessageOnly)) {
    lua_close(L);
    return nullptr;
  }
  return L;
}

int protected_call(lua_State* L, int nargs, int nresults, ErrorStyle style) {
  int base = lua_gettop(L) - nargs;
  lua_pushcfunction(L, style == ErrorStyle::Traceback ? traceback_handler : message_handler);
  lua_insert(L, base);
  int status;
  {
    InterruptScope interrupts(L);
    status = lua_pcall(L, nargs, nresults, base);
  }
  lua_remove(L, base);
  return status;
}

std::string pop_error(lua_State* L) {
  std::string text;
  if (lua_type(L, -1) == LUA_TSTRING) {
    size_t len = 0;
    const char* s = lua_tolstring(L, -1, &len);
    text.assign(s, len);
  } else {
    text = std::string("(error object is a ") + luaL_typename(L, -1) + " value)";
  }
  lua_pop(L, 1);
  return text;
}

void set_arg_table(lua_State* L, int argc, char** argv, int script) {
  if (script >= argc) script = 0;
  lua_createtable(L, argc - script - 1, script + 1);
  for (int i = 0; i < argc; ++i) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i - script);
  }
  lua_setglobal(L, "arg");
}

bool run_string(lua_State* L, const std::string& code, const char* chunkname, ErrorStyle style) {
  int status = luaL_loadbuffer(L, code.data(), code.size(), chunkname);
  if (status == LUA_OK) status = protected_call(L, 0, 0, style);
  if (status == LUA_OK) return true;
  write_cli_error(pop_error(L));
  return false;
}

}  // namespace gl::interp
