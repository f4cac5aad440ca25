// `gpulab check FILE`: runs a learner's exercise, then its checker in the same
// state. The exercise is named inside FILE ("-- exercise: NAME"), so a renamed
// copy finds its checker; the checker calls check(cond, message) and the
// helpers of check_prelude.h, and the failures it collects are printed.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <lua.hpp>

#include "interpreter/check_prelude.h"
#include "interpreter/evaluate.h"
#include "interpreter/exercises.h"
#include "interpreter/lessons.h"
#include "interpreter/session.h"
#include "interpreter/terminal.h"

namespace fs = std::filesystem;

namespace gl::interp {
namespace {

// The checker of exercise `id`: in lessons/exercises, else next to FILE.
std::string find_checker(const std::string& id, const std::string& file, std::vector<std::string>* tried) {
  std::error_code ec;
  std::vector<fs::path> candidates;
  std::string dir = exercises_directory();
  if (!dir.empty()) candidates.push_back(fs::path(dir) / (id + ".check.lua"));
  candidates.push_back(fs::path(file).parent_path() / (id + ".check.lua"));
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

// TARGET is no file: say what to do when it names an exercise.
int not_a_file(const std::string& target) {
  std::string starter, error;
  if (target.find('/') == std::string::npos && resolve_exercise(target, &starter, &error)) {
    std::string stem = fs::path(starter).stem().string();
    std::error_code ec;
    if (fs::is_regular_file(stem + ".lua", ec)) {
      write_cli_error("'" + target + "' is an exercise, not a file: check your copy with 'gpulab check " + stem +
                      ".lua'");
    } else {
      write_cli_error("'" + target + "' is an exercise, not a file: first get your copy with 'gpulab exercise " + stem +
                      "', fill it in, then run 'gpulab check " + stem + ".lua'");
    }
    return 1;
  }
  write_cli_error("cannot open " + target + " (see 'gpulab lessons' for the exercises)");
  return 1;
}

// Defines check() and the helpers as globals (again after the learner's code,
// which may have reused one of their names).
void install_helpers(lua_State* L, int install_index) {
  lua_pushvalue(L, install_index);
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) lua_pop(L, 1);  // only fails out of memory
}

int visible_gpus(lua_State* L) {
  if (luaL_dostring(L, "return torch.cuda.device_count()") != LUA_OK) {
    lua_pop(L, 1);
    return 0;
  }
  int n = int(lua_tointeger(L, -1));
  lua_pop(L, 1);
  return n;
}

}  // namespace

int run_check(const std::string& file, const SessionOptions& session, char** argv) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return not_a_file(file);
  std::string id = exercise_id_in(file);
  const bool named = !id.empty();
  if (!named) id = fs::path(file).stem().string();
  std::vector<std::string> tried;
  std::string checker = find_checker(id, file, &tried);
  if (checker.empty()) {
    std::string msg = named ? "no checker for exercise '" + id + "' named in " + file
                            : "no checker for " + file +
                                  ": its first line should name its exercise, e.g. "
                                  "'-- exercise: 000_mixed_devices' (see 'gpulab lessons')";
    msg += " (looked for";
    for (const std::string& t : tried) msg += " " + t;
    write_cli_error(msg + ")");
    return 1;
  }
  lua_State* L = open_session(session);
  if (L == nullptr) return 1;
  // Before running anything: a missing GPU is not the learner's mistake.
  const int needed = gpus_needed(checker), visible = visible_gpus(L);
  if (visible < needed) {
    std::string have = visible == 0 ? "none is visible here" : std::to_string(visible) + " is visible here";
    report("NOT CHECKED", kYellow,
           "exercise " + id + " needs " + std::to_string(needed) + (needed == 1 ? " GPU" : " GPUs") + " and " + have +
               ", so where your code runs cannot be checked. Run it on virtual GPUs: "
               "gpulab check " +
               file + " --virtual-gpus " + std::to_string(virtual_gpus_to_suggest(needed)));
    lua_close(L);
    return 1;
  }
  std::string file_arg = file;
  char* check_argv[] = {argv[0], file_arg.data()};
  set_arg_table(L, 2, check_argv, 1);

  if (luaL_loadstring(L, kCheckPrelude) != LUA_OK || protected_call(L, 0, 2, ErrorStyle::MessageOnly) != LUA_OK) {
    write_cli_error(pop_error(L));
    lua_close(L);
    return 1;
  }
  const int failures = lua_gettop(L) - 1, install = lua_gettop(L);
  install_helpers(L, install);

  mark_learner_source(L, "@" + file);
  int status = luaL_loadfile(L, file.c_str());
  if (status != LUA_OK) {
    report("FAIL", kRed, "your code has a syntax error: " + pop_error(L));
    lua_close(L);
    return 1;
  }
  // When the learner's file stops with an error, the checker still runs: the
  // functions defined before the error get their hints (a blank left in).
  const bool raised = protected_call(L, 0, 0, ErrorStyle::MessageOnly) != LUA_OK;
  if (raised) report("FAIL", kRed, "your code raised an error: " + pop_error(L));
  install_helpers(L, install);
  status = luaL_loadfile(L, checker.c_str());
  if (status == LUA_OK) status = protected_call(L, 0, 0, ErrorStyle::MessageOnly);
  if (status != LUA_OK) {
    // After the learner's own error a checker may trip on what never got defined.
    std::string error = pop_error(L);
    if (!raised) report("FAIL", kRed, "the checker raised an error: " + error);
    lua_close(L);
    return 1;
  }
  lua_Integer n = luaL_len(L, failures);
  for (lua_Integer i = 1; i <= n; ++i) {
    lua_rawgeti(L, failures, i);
    report("FAIL", kRed, lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  const bool passed = n == 0 && !raised;
  if (passed) report("PASS", "32", "");
  lua_close(L);
  return passed ? 0 : 1;
}

}  // namespace gl::interp
