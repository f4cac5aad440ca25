// `gpulab check FILE`: runs a learner's exercise, then its checker in the same
// state. The checker calls check(cond, message); failures are collected.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <lua.hpp>

#include "interpreter/lessons.h"
#include "interpreter/session.h"
#include "interpreter/terminal.h"

namespace fs = std::filesystem;

namespace gl::interp {
namespace {

// Defines the global check(cond, message) and returns the table it fills.
constexpr const char* kCheckPrelude = R"(
local failures = {}
local function check(cond, message)
  if not cond then
    failures[#failures + 1] = message ~= nil and tostring(message) or 'check failed'
  end
  return cond
end
return failures, check
)";

// "foo.check.lua" next to FILE, else in <lessons>/exercises; "" if neither.
std::string find_checker(const std::string& file, std::vector<std::string>* tried) {
  fs::path path(file);
  std::string base = path.stem().string();
  std::error_code ec;
  std::vector<fs::path> candidates = {path.parent_path() / (base + ".check.lua")};
  std::string lessons = lessons_directory();
  if (!lessons.empty()) candidates.push_back(fs::path(lessons) / "exercises" / (base + ".check.lua"));
  for (const fs::path& c : candidates) {
    tried->push_back(c.string());
    if (fs::is_regular_file(c, ec)) return c.string();
  }
  return {};
}

void report(const char* verdict, const char* sgr, const std::string& message) {
  std::string text = verdict;
  if (!message.empty()) text += ": " + message;
  std::fputs(paint(stdout, sgr, text).c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

// Sets the global `check` (again: the learner's code may have replaced it).
void set_check_global(lua_State* L, int check_index) {
  lua_pushvalue(L, check_index);
  lua_setglobal(L, "check");
}

}  // namespace

int run_check(const std::string& file, const SessionOptions& session, char** argv) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    write_cli_error("cannot open " + file);
    return 1;
  }
  std::vector<std::string> tried;
  std::string checker = find_checker(file, &tried);
  if (checker.empty()) {
    std::string msg = "no checker for " + file + " (looked for";
    for (const std::string& t : tried) msg += " " + t;
    write_cli_error(msg + ")");
    return 1;
  }
  lua_State* L = open_session(session);
  if (L == nullptr) return 1;
  std::string file_arg = file;
  char* check_argv[] = {argv[0], file_arg.data()};
  set_arg_table(L, 2, check_argv, 1);

  if (luaL_loadstring(L, kCheckPrelude) != LUA_OK ||
      protected_call(L, 0, 2, ErrorStyle::MessageOnly) != LUA_OK) {
    write_cli_error(pop_error(L));
    lua_close(L);
    return 1;
  }
  const int failures = lua_gettop(L) - 1, check = lua_gettop(L);
  set_check_global(L, check);

  int status = luaL_loadfile(L, file.c_str());
  if (status != LUA_OK) {
    report("FAIL", kRed, "your code has a syntax error: " + pop_error(L));
    lua_close(L);
    return 1;
  }
  if (protected_call(L, 0, 0, ErrorStyle::MessageOnly) != LUA_OK) {
    report("FAIL", kRed, "your code raised an error: " + pop_error(L));
    lua_close(L);
    return 1;
  }
  set_check_global(L, check);
  status = luaL_loadfile(L, checker.c_str());
  if (status == LUA_OK) status = protected_call(L, 0, 0, ErrorStyle::MessageOnly);
  if (status != LUA_OK) {
    report("FAIL", kRed, "the checker raised an error: " + pop_error(L));
    lua_close(L);
    return 1;
  }
  lua_Integer n = luaL_len(L, failures);
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, failures, i);
    report("FAIL", kRed, lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  if (n == 0) report("PASS", "32", "");
  lua_close(L);
  return n == 0 ? 0 : 1;
}

}  // namespace gl::interp
