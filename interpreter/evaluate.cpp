#include "interpreter/evaluate.h"

#include <cstdio>
#include <cctype>
#include <cstring>
#include <vector>

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

EchoSink g_echo_sink = nullptr;

// The echo with a sink: the same text handed over with the values still at 1..n.
int sink_results(lua_State* L) {
  const int n = lua_gettop(L);
  push_echo_text(L, 1, n);
  size_t len = 0;
  const char* text = lua_tolstring(L, -1, &len);
  g_echo_sink(L, n, text, len);
  return 0;
}

// Prints its arguments as torch._echo shows them (a named tuple's two results
// as one), else with the global repr (falling back to tostring), one per line.
// Runs under lua_pcall: repr and __tostring may raise errors, so no C++
// objects live here.
int print_values(lua_State* L) {
  if (g_echo_sink != nullptr) return sink_results(L);
  int n = lua_gettop(L);
  if (lua_getfield(L, LUA_REGISTRYINDEX, "gpulab.echo") == LUA_TFUNCTION) {
    lua_insert(L, 1);
    lua_call(L, n, 1);
    if (lua_type(L, -1) == LUA_TSTRING) {
      size_t len = 0;
      const char* text = lua_tolstring(L, -1, &len);
      std::fwrite(text, 1, len, stdout);
      std::fputc('\n', stdout);
    }
    std::fflush(stdout);
    return 0;
  }
  lua_pop(L, 1);
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

// The echo of a cell's values, and Note [Guards left on the prompt]'s hint
// after it (on stderr, as the hints under errors).
int print_results(lua_State* L) {
  const int n = lua_gettop(L);
  if (!close_echoed_guards(L, 1, n)) return print_values(L);
  lua_insert(L, 1);  // the hint below the values
  lua_pushcfunction(L, print_values);
  lua_insert(L, 2);
  lua_call(L, n, 0);
  std::fflush(stdout);
  std::fprintf(stderr, "%s\n", lua_tostring(L, 1));
  std::fflush(stderr);
  return 0;
}

// Calls registry["gpulab.repl"][fn](args on the top `nargs` slots) under a
// pcall and returns its string result; empty when it is missing or fails
// (the REPL then prints the plain message).
std::string call_repl_helper(lua_State* L, const char* fn, int nargs) {
  const int base = lua_gettop(L) - nargs;
  std::string text;
  if (lua_getfield(L, LUA_REGISTRYINDEX, "gpulab.repl") == LUA_TTABLE && lua_getfield(L, -1, fn) == LUA_TFUNCTION) {
    lua_insert(L, base + 1);
    lua_pop(L, 1);  // the table
    if (lua_pcall(L, nargs, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING) {
      size_t len = 0;
      const char* s = lua_tolstring(L, -1, &len);
      text.assign(s, len);
    }
  }
  lua_settop(L, base);
  return text;
}

// Runs the cell's chunk (argument 1) with the REPL's message handler, which
// explains the error while its frames still exist (traceback trimmed to the
// user's cells, the line with a caret, did-you-mean, hints), and re-raises
// the explained text. Without the handler, errors pass through unchanged.
int cell_runner(lua_State* L) {
  const int n_before = lua_gettop(L) - 1;  // 0: only the chunk
  if (lua_getfield(L, LUA_REGISTRYINDEX, "gpulab.repl") == LUA_TTABLE &&
      lua_getfield(L, -1, "handler") == LUA_TFUNCTION) {
    lua_remove(L, -2);
  } else {
    lua_settop(L, 1);
    lua_call(L, 0, LUA_MULTRET);
    return lua_gettop(L);
  }
  lua_insert(L, 1);  // handler below the chunk
  if (lua_pcall(L, n_before, LUA_MULTRET, 1) != LUA_OK) return lua_error(L);
  return lua_gettop(L) - 1;
}

// IPython's output history (06_repl_history.lua): the results at base + 1..
// handed to registry['gpulab.repl'].output under a pcall; a failure only
// means no history.
void record_output(lua_State* L, int base) {
  const int n = lua_gettop(L) - base;
  if (!lua_checkstack(L, n + 4)) return;
  if (lua_getfield(L, LUA_REGISTRYINDEX, "gpulab.repl") == LUA_TTABLE &&
      lua_getfield(L, -1, "output") == LUA_TFUNCTION) {
    for (int i = base + 1; i <= base + n; ++i) lua_pushvalue(L, i);
    if (lua_pcall(L, n, 0, 0) != LUA_OK) lua_pop(L, 1);
  } else {
    lua_pop(L, 1);
  }
  lua_settop(L, base + n);
}

// After a chunk ran from stack slot base + 1: echoes its results (when echo
// and it succeeded) and keeps them in the output history, or reports its
// error; leaves the stack at base.
bool finish_call(lua_State* L, int base, int status, bool echo) {
  // Python echoes nothing for None (x.grad before any backward); (None, 1) still shows.
  const bool only_nil = lua_gettop(L) == base + 1 && lua_isnil(L, -1);
  if (status == LUA_OK && echo && lua_gettop(L) > base && !only_nil) {
    // The echo first: the history's names (_, _N) must not name what it prints.
    // Too many results to copy are echoed and not kept.
    const int n = lua_gettop(L) - base;
    const bool keep = lua_checkstack(L, n + 2);
    lua_pushcfunction(L, print_results);
    if (keep) {
      for (int i = base + 1; i <= base + n; ++i) lua_pushvalue(L, i);
    } else {
      lua_insert(L, base + 1);
    }
    status = protected_call(L, n, 0, ErrorStyle::MessageOnly);
    if (status == LUA_OK && keep) record_output(L, base);
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

}  // namespace

std::string cell_chunkname(int n) { return "=In[" + std::to_string(n) + "]"; }

void mark_learner_source(lua_State* L, const std::string& source) {
  const int top = lua_gettop(L);
  lua_getglobal(L, "torch");
  if (lua_type(L, -1) == LUA_TTABLE && lua_getfield(L, -1, "_util") == LUA_TTABLE &&
      lua_getfield(L, -1, "strict_source") == LUA_TFUNCTION) {
    lua_pushlstring(L, source.data(), source.size());
    lua_pcall(L, 1, 0, 0);
  }
  lua_settop(L, top);
}

std::optional<std::string> help_request(const std::string& line) {
  const size_t a = line.find_first_not_of(" \t");
  const size_t b = line.find_last_not_of(" \t\r");
  if (a == std::string::npos) return std::nullopt;
  std::string body;
  if (line[a] == '?') body = line.substr(a + 1, b - a);
  else if (line[b] == '?') body = line.substr(a, b - a);
  else return std::nullopt;
  while (!body.empty() && (body.front() == '?' || body.front() == ' ')) body.erase(0, 1);
  while (!body.empty() && (body.back() == '?' || body.back() == ' ')) body.pop_back();
  if (body.empty()) return std::string("help()");
  for (char c : body)  // a name or a dotted/colon path only: anything else is Lua
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == ':')) return std::nullopt;
  return "help('" + body + "')";
}

void write_cell_error(lua_State* L, const std::string& message, const std::string& input) {
  lua_pushlstring(L, message.data(), message.size());
  lua_pushlstring(L, input.data(), input.size());
  std::string text = call_repl_helper(L, "syntax", 2);
  write_error(text.empty() ? message : text);
}

void set_echo_sink(EchoSink sink) { g_echo_sink = sink; }

void push_echo_text(lua_State* L, int first, int n) {
  const int top = lua_gettop(L);
  if (lua_getfield(L, LUA_REGISTRYINDEX, "gpulab.echo") == LUA_TFUNCTION) {
    for (int i = first; i < first + n; ++i) lua_pushvalue(L, i);
    lua_call(L, n, 1);
    if (lua_type(L, -1) == LUA_TSTRING) return;
    lua_settop(L, top);
  } else {
    lua_pop(L, 1);
  }
  for (int i = first; i < first + n; ++i) {
    if (i > first) lua_pushliteral(L, "\n");
    if (lua_getglobal(L, "repr") == LUA_TFUNCTION) {
      lua_pushvalue(L, i);
      lua_call(L, 1, 1);
      if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "repr returned a %s value instead of a string", luaL_typename(L, -1));
    } else {
      lua_pop(L, 1);
      luaL_tolstring(L, i, nullptr);
    }
  }
  lua_concat(L, lua_gettop(L) - top);
}

bool run_cell(lua_State* L, const std::string& input, const char* chunkname, bool echo) {
  return run_cell(L, input, chunkname, echo, input);
}

bool run_cell(lua_State* L, const std::string& input, const char* chunkname, bool echo, const std::string& echoed) {
  lua_pushstring(L, chunkname);
  lua_pushlstring(L, input.data(), input.size());
  call_repl_helper(L, "begin", 2);  // keeps the source for tracebacks
  lua_pushcfunction(L, cell_runner);
  lua_insert(L, -2);
  const int base = lua_gettop(L) - 2;
  int status = protected_call(L, 1, LUA_MULTRET, ErrorStyle::MessageOnly);
  if (status == LUA_OK && echo && lua_gettop(L) == base + 1 && lua_isnil(L, -1)) {
    // `foo` alone, undefined: NameError (with did-you-mean) rather than nil.
    lua_pushlstring(L, echoed.data(), echoed.size());
    std::string error = call_repl_helper(L, "echo_nil", 1);
    if (!error.empty()) {
      write_error(error);
      lua_settop(L, base);
      return false;
    }
  }
  // Note [Tensor ==]: a comparison that Lua answered with one boolean.
  std::string note;
  if (status == LUA_OK && echo && lua_gettop(L) == base + 1 && lua_isboolean(L, -1)) {
    lua_pushlstring(L, echoed.data(), echoed.size());
    note = call_repl_helper(L, "echo_note", 1);
  }
  const bool ok = finish_call(L, base, status, echo);
  if (!note.empty()) {
    lua_getglobal(L, "print");  // the session's print: the terminal, or a notebook's stream
    lua_pushlstring(L, note.data(), note.size());
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) lua_pop(L, 1);
  }
  return ok;
}

// `x:shape` alone on its line: Lua waits for the call's arguments, which a
// Python habit (x.shape) will never type. The error now, with its hint (06_repl_hints.lua).
static bool field_read_as_method(lua_State* L, const std::string& input) {
  const char* msg = lua_tostring(L, -1);
  if (msg == nullptr || std::strstr(msg, "function arguments expected near <eof>") == nullptr) return false;
  size_t end = input.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return false;
  size_t start = end + 1;
  while (start > 0 && (std::isalnum(static_cast<unsigned char>(input[start - 1])) || input[start - 1] == '_')) --start;
  return start <= end && start > 0 && input[start - 1] == ':' && input.find('\n', start) == std::string::npos;
}

Compilation compile_input(lua_State* L, const std::string& input, const char* chunkname, int first_line) {
  const std::string padding(first_line > 1 ? first_line - 1 : 0, '\n');
  Compilation result;
  std::string code = padding + "return " + input;
  int status = luaL_loadbuffer(L, code.data(), code.size(), chunkname);
  if (status == LUA_OK) {
    // Run it as an argument of a call rather than `return f(x)`: a tail call
    // would drop the cell's own frame from tracebacks (and f's name).
    const std::string wrapped = padding + "return (function(...) return ... end)(" + input + "\n)";
    if (luaL_loadbuffer(L, wrapped.data(), wrapped.size(), chunkname) == LUA_OK) lua_remove(L, -2);
    else lua_pop(L, 1);
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
  if ((is_incomplete(L, status) || incomplete_expression) && !field_read_as_method(L, input)) {
    result.status = Compiled::Incomplete;
    lua_pop(L, 1);  // the statement form's message: a continuation will follow
    return result;
  }
  result.status = Compiled::Error;
  result.error = pop_error(L);
  return result;
}

namespace {
bool starts_with_word(const std::string& s, const char* word) {
  size_t n = std::char_traits<char>::length(word);
  return s.compare(0, n, word) == 0 &&
         (s.size() == n || !(std::isalnum(static_cast<unsigned char>(s[n])) || s[n] == '_'));
}
}  // namespace

std::vector<size_t> statement_starts(const std::string& source) {
  std::vector<size_t> starts{0};
  for (size_t i = 0; i < source.size(); ++i)
    if (source[i] == '\n' || source[i] == ';') starts.push_back(i + 1);
  return starts;
}

bool joins_previous(const std::string& source, size_t start) {
  if (start == 0 || source[start - 1] != '\n') return false;
  const size_t b = source.find_first_not_of(" \t\r\n", start);
  if (b == std::string::npos) return false;
  const std::string tail = source.substr(b);
  unsigned char c = static_cast<unsigned char>(tail[0]);
  if (!(std::isalnum(c) || c == '_')) return true;
  return starts_with_word(tail, "or") || starts_with_word(tail, "and");
}

std::string with_final_return(lua_State* L, const std::string& source) {
  const std::vector<size_t> starts = statement_starts(source);
  const bool statements = luaL_loadbuffer(L, source.data(), source.size(), "=cell") == LUA_OK;
  lua_pop(L, 1);
  for (size_t k = starts.size(); k-- > 1;) {
    size_t b = source.find_first_not_of(" \t", starts[k]);
    if (b == std::string::npos || source[b] == '\n' || source[b] == ';' || source.compare(b, 2, "--") == 0) continue;
    if (statements && joins_previous(source, starts[k])) continue;  // Lua reads "x = f\n(g)" as one call
    std::string candidate = source.substr(0, b) + "return " + source.substr(b);
    bool ok = luaL_loadbuffer(L, candidate.data(), candidate.size(), "=cell") == LUA_OK;
    lua_pop(L, 1);
    if (!ok) continue;
    ok = luaL_loadbuffer(L, source.data(), starts[k], "=cell") == LUA_OK;
    lua_pop(L, 1);
    return ok ? candidate : std::string();
  }
  return {};
}

bool echo_suppressed(const std::string& input) {
  size_t end = input.find_last_not_of(" \t\r\n");
  return end != std::string::npos && input[end] == ';';
}

bool run_compiled(lua_State* L, bool echo) {
  int base = lua_gettop(L) - 1;  // below the chunk
  int status = protected_call(L, 0, LUA_MULTRET, ErrorStyle::MessageOnly);
  return finish_call(L, base, status, echo);
}

bool evaluate(lua_State* L, const std::string& input, const char* chunkname, int first_line, bool suppress_echo) {
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
