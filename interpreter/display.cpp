#include "interpreter/display.h"

#include <cstdarg>
#include <cstring>
#include <random>

#include <lua.hpp>

#include "interpreter/evaluate.h"
#include "interpreter/progress.h"

namespace gl::interp {
namespace {

DisplaySink* g_sink = nullptr;

// A Python-style error without luaL_error's position prefix ("TypeError: ...").
[[noreturn]] void raise(lua_State* L, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  lua_pushvfstring(L, fmt, args);
  va_end(args);
  lua_error(L);
  __builtin_unreachable();
}

// IPython's fresh ids are uuid4().hex: 32 hex digits.
void push_fresh_display_id(lua_State* L) {
  static std::mt19937_64 bits(std::random_device{}());
  static const char* hex = "0123456789abcdef";
  char id[32];
  for (char& c : id) c = hex[bits() & 15];
  lua_pushlstring(L, id, sizeof id);
}

// The options table at `index` (nil or absent: none): pushes its display_id
// (a string), checked, or nil. `update`: update_display's, which requires it.
void push_display_id(lua_State* L, int index, const char* fn, bool update) {
  if (lua_isnoneornil(L, index)) {
    if (update) raise(L, "TypeError: %s() missing 1 required keyword-only argument: 'display_id'", fn);
    lua_pushnil(L);
    return;
  }
  if (!lua_istable(L, index) || lua_getmetatable(L, index))
    raise(L, "TypeError: %s(): the second argument must be an options table such as {display_id=...}, not %s", fn,
          luaL_typename(L, index));
  lua_pushnil(L);
  while (lua_next(L, index) != 0) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING || std::strcmp(lua_tostring(L, -1), "display_id") != 0) {
      lua_pushvalue(L, -1);
      raise(L, "TypeError: %s() got an unexpected keyword argument '%s'", fn, luaL_tolstring(L, -1, nullptr));
    }
  }
  const int type = lua_getfield(L, index, "display_id");
  if (type == LUA_TSTRING) {
    if (lua_rawlen(L, -1) == 0) raise(L, "ValueError: %s(): display_id must not be empty", fn);
  } else if (type == LUA_TBOOLEAN && lua_toboolean(L, -1) && !update) {
    lua_pop(L, 1);
    push_fresh_display_id(L);
  } else if (type == LUA_TNIL && update) {
    raise(L, "TypeError: %s() missing 1 required keyword-only argument: 'display_id'", fn);
  } else if (type != LUA_TNIL) {
    raise(L, "TypeError: %s(): display_id must be a string%s, not %s", fn, update ? "" : " or true",
          luaL_typename(L, -1));
  }
}

// Sends x (slot 1) with the display id at slot 3 (or nil); the bundle is at 4, 5.
// No Lua error is raised while C++ objects live: the message comes back instead.
std::string send(lua_State* L, bool update) {
  MimeBundle bundle = read_mime_bundle(L, 4);
  std::string id = lua_isstring(L, 3) ? lua_tostring(L, 3) : "";
  lua_pushvalue(L, 1);
  const int ref = luaL_ref(L, LUA_REGISTRYINDEX);
  std::string error = g_sink->show(L, ref, bundle, id, update);
  luaL_unref(L, LUA_REGISTRYINDEX, ref);
  return error;
}

void show(lua_State* L, const char* fn, bool update) {
  luaL_checkany(L, 1);
  lua_settop(L, 2);
  push_display_id(L, 2, fn, update);  // slot 3
  push_mime_bundle(L, 1);             // slots 4, 5
  if (g_sink != nullptr) {
    bool failed = false;
    {
      std::string error = send(L, update);
      if (!error.empty()) {
        lua_pushlstring(L, error.data(), error.size());
        failed = true;
      }
    }
    if (failed) lua_error(L);
  } else {  // the terminal and scripts: the text, through print (lessons may capture it)
    lua_getglobal(L, "print");
    lua_getfield(L, 4, "text/plain");
    lua_call(L, 1, 0);
  }
}

int l_display(lua_State* L) {
  if (lua_gettop(L) > 2)
    raise(L,
          "TypeError: display() takes one value and an options table, as display(x, {display_id=...}); "
          "got %d arguments",
          lua_gettop(L));
  show(L, "display", false);
  lua_pushvalue(L, 3);  // the id, or nil
  return 1;
}

int l_update_display(lua_State* L) {
  if (lua_gettop(L) > 2)
    raise(L, "TypeError: update_display() takes one value and {display_id=...}; got %d arguments", lua_gettop(L));
  show(L, "update_display", true);
  return 0;
}

constexpr const char* kDisplayDoc =
    "display(x [, {display_id=ID}]): show x as IPython's display() does, and return ID.\n"
    "  display_id: a string, or true for a fresh one; without it display returns nil.\n"
    "  What is shown: getmetatable(x).__mimebundle(x) when x's metatable has that function\n"
    "  (a table of MIME type -> string, such as [\"text/plain\"], [\"text/html\"],\n"
    "  [\"image/svg+xml\"], or [\"image/png\"] as raw bytes), with text/plain added as x's echo;\n"
    "  otherwise x's echo (a 2-D tensor also as an HTML table in a notebook).\n"
    "  In a notebook (gpulab kernel) it is a display_data output; update_display(y, {display_id=ID})\n"
    "  replaces that output in place. In the terminal and in scripts display prints x's text/plain,\n"
    "  and update_display prints the new text/plain again, below (nothing is redrawn).";
constexpr const char* kUpdateDoc =
    "update_display(x, {display_id=ID}): replace the output display(..., {display_id=ID}) made with x\n"
    "(IPython's update_display). In a notebook the output changes in place (update_display_data);\n"
    "in the terminal and in scripts x's text/plain is printed again. See help(display).";

void set_doc(lua_State* L, const char* global, const char* doc) {
  if (lua_getglobal(L, "torch") != LUA_TTABLE || lua_getfield(L, -1, "_set_doc") != LUA_TFUNCTION) {
    lua_settop(L, lua_gettop(L) - 2);
    return;
  }
  lua_getglobal(L, global);
  lua_pushstring(L, doc);
  lua_call(L, 2, 0);
  lua_pop(L, 1);
}

}  // namespace

void set_display_sink(DisplaySink* sink) { g_sink = sink; }
bool has_display_sink() { return g_sink != nullptr; }

void push_mime_bundle(lua_State* L, int index) {
  index = lua_absindex(L, index);
  lua_newtable(L);
  const int bundle = lua_gettop(L);
  bool from_value = false;
  if (luaL_getmetafield(L, index, "__mimebundle") != LUA_TNIL) {
    if (lua_type(L, -1) != LUA_TFUNCTION)
      raise(L, "TypeError: __mimebundle must be a function, not %s", luaL_typename(L, -1));
    lua_pushvalue(L, index);
    lua_call(L, 1, 1);
    if (!lua_istable(L, -1))
      raise(L, "TypeError: __mimebundle must return a table of MIME type -> string, not %s", luaL_typename(L, -1));
    const int table = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, table) != 0) {
      if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
        raise(L, "TypeError: __mimebundle must return a table of MIME type -> string, found %s -> %s",
              luaL_typename(L, -2), luaL_typename(L, -1));
      lua_pushvalue(L, -2);
      lua_insert(L, -2);
      lua_rawset(L, bundle);
    }
    lua_pop(L, 1);
    from_value = true;
  }
  if (lua_getfield(L, bundle, "text/plain") == LUA_TNIL) {
    lua_pop(L, 1);
    push_echo_text(L, index, 1);
    lua_setfield(L, bundle, "text/plain");
  } else {
    lua_pop(L, 1);
  }
  lua_pushboolean(L, from_value);
}

MimeBundle read_mime_bundle(lua_State* L, int table) {
  table = lua_absindex(L, table);
  MimeBundle bundle;
  bundle.from_value = lua_toboolean(L, table + 1);
  lua_getfield(L, table, "text/plain");
  size_t len = 0;
  const char* text = lua_tolstring(L, -1, &len);
  bundle.items.emplace_back("text/plain", std::string(text ? text : "", text ? len : 0));
  lua_pop(L, 1);
  lua_pushnil(L);
  while (lua_next(L, table) != 0) {
    const char* value = lua_tolstring(L, -1, &len);
    std::string mime = lua_tostring(L, -2);
    if (mime != "text/plain") bundle.items.emplace_back(mime, std::string(value, len));
    lua_pop(L, 1);
  }
  return bundle;
}

int open_display(lua_State* L) {
  lua_pushcfunction(L, l_display);
  lua_setglobal(L, "display");
  lua_pushcfunction(L, l_update_display);
  lua_setglobal(L, "update_display");
  set_doc(L, "display", kDisplayDoc);
  set_doc(L, "update_display", kUpdateDoc);
  open_progress(L);
  return 0;
}

}  // namespace gl::interp
