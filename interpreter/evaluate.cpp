#include "interpreter/evaluate.h"

#include <cstdio>
#include <cstring>

#include <lua.hpp>

#include "interpreter/session.h"
#include "interpreter/terminal.h"

namespace gl::interp {
namespace {

// lua.c: a syntax error whose message ends in "<eof>" means "keep reading".
bool is_incomplete(lua_State* L, int status) {
  if (status != LUA_ERRSYNTAX) return false;
  size_t len = 0;
  const char* msg = lua_tolstring(L, -1, &len);
  const size_t mark = std::strlen("<eof>");
  return msg != nullptr && len >= mark && std::strcmp(msg + len - mark, "<eof>") == 0;
}

// Prints its arguments with the global repr (falling back to tostring), one
// per line. Runs under lua_pcall: repr and __tostring may raise errors, so no
// C++ objects live here.
int print_results(lua_State* L) {
  int n = lua_gettop(L);
  for (int i = 1; i <= n; ++i) {
    if (lua_getglobal(L, "repr") == LUA_TFUNCTION) {
      lua_pushvalue(L, i);
      lua_call(L, 1, 1);
      if (lua_type(L, -1) != LUA_TSTRING) {
        return luaL_error(L, "repr returned a %s value instead of a string", luaL_typename(L, -1));
      }
    } else {
      lua_pop(L, 1);
      luaL_tolstring(L, i, nullptr);
    }
    size_t len = 0;
    const char* text = lua_tolstring(L, -1, &len);
    std::fwrite(text, 1, len, stdout);
    std::fputc('\n', stdout);
    lua_pop(L, 1);
  }
  std::fflush(stdout);
  return 0;
}

}  // namespace

Compilation compile_input(lua_State* L, const std::string& input, const char* chunkname,
                          int first_line) {
  const std::string padding(first_line > 1 ? first_line - 1 : 0, '\n');
  Compilation result;
  std::string code = padding + "return " + input;
  int status = luaL_loadbuffer(L, code.data(), code.size(), chunkname);
  if (status == LUA_OK) {
    result.status = Compiled::Ok;
    result.expression = true;
    return result;
  }
  bool incomplete_expression = is_incomplete(L, status);
  lua_pop(L, 1);
  code = padding + input;
  status = luaL_loadbuffer(L, code.data(), code.size(), chunkname);
  if (status == LUA_OK) {
    result.status = Compiled::Ok;
    return result;
  }
  if (is_incomplete(L, status) || incomplete_expression) {
    result.status = Compiled::Incomplete;
    lua_pop(L, 1);  // the statement form's message: a continuation will follow
    return result;
  }
  result.status = Compiled::Error;
  result.error = pop_error(L);
  return result;
}

bool echo_suppressed(const std::string& input) {
  size_t end = input.find_last_not_of(" \t\r\n");
  return end != std::string::npos && input[end] == ';';
}

bool run_compiled(lua_State* L, bool echo) {
  int base = lua_gettop(L) - 1;  // below the chunk
  int status = protected_call(L, 0, LUA_MULTRET, ErrorStyle::MessageOnly);
  if (status == LUA_OK && echo && lua_gettop(L) > base) {
    int n = lua_gettop(L) - base;
    lua_pushcfunction(L, print_results);
    lua_insert(L, base + 1);
    status = protected_call(L, n, 0, ErrorStyle::MessageOnly);
  }
  if (status != LUA_OK) {
    std::string message = pop_error(L);
    // The terminal echoed "^C" on the current line: start the message below it.
    if (message == "KeyboardInterrupt" && is_terminal(stdin)) std::fputc('\n', stdout);
    write_error(message);
  }
  lua_settop(L, base);
  return status == LUA_OK;
}

bool evaluate(lua_State* L, const std::string& input, const char* chunkname, int first_line,
              bool suppress_echo) {
  Compilation c = compile_input(L, input, chunkname, first_line);
  if (c.status == Compiled::Incomplete) {
    // Report the statement form's "<eof>" error, as lua.c does at end of input.
    std::string code = std::string(first_line > 1 ? first_line - 1 : 0, '\n') + input;
    luaL_loadbuffer(L, code.data(), code.size(), chunkname);
    write_error(pop_error(L));
    return false;
  }
  if (c.status == Compiled::Error) {
    write_error(c.error);
    return false;
  }
  return run_compiled(L, !suppress_echo);
}

}  // namespace gl::interp
