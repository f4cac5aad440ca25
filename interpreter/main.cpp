// gpulab: the command line (modelled on Lua's lua.c). See usage_text().
#include <clocale>
#include <cstdio>
#include <string>

#include <lua.hpp>

#include "bindings/bindings.h"
#include "interpreter/command_line.h"
#include "interpreter/doctor.h"
#include "interpreter/lessons.h"
#include "interpreter/repl.h"
#include "interpreter/session.h"
#include "interpreter/terminal.h"
#include "interpreter/version.h"

namespace gl::interp {
namespace {

// Runs argv[script] (standard input for "-") with arg[1..] as `...`.
bool run_script(lua_State* L, int argc, char** argv, int script) {
  std::string name = argv[script];
  bool from_stdin = name == "-" && std::string(argv[script - 1]) != "--";
  int status = luaL_loadfile(L, from_stdin ? nullptr : name.c_str());
  if (status == LUA_OK) {
    int nargs = argc - script - 1;
    if (!lua_checkstack(L, nargs + 3)) {
      write_cli_error("too many arguments to the script");
      return false;
    }
    for (int i = script + 1; i < argc; ++i) lua_pushstring(L, argv[i]);
    status = protected_call(L, nargs, 0, ErrorStyle::Traceback);
  }
  if (status == LUA_OK) return true;
  write_cli_error(pop_error(L));
  return false;
}

int run(const CommandLine& cl, int argc, char** argv) {
  SessionOptions session;
  session.seed = cl.seed;
  lua_State* L = open_session(session);
  if (L == nullptr) return 1;
  set_arg_table(L, argc, argv, cl.script > 0 ? cl.script : argc);
  bool ok = true;
  for (const std::string& statement : cl.statements) {
    ok = run_string(L, statement, "=(command line)", ErrorStyle::Traceback);
    if (!ok) break;
  }
  if (ok && cl.script > 0) ok = run_script(L, argc, argv, cl.script);
  if (ok && (cl.interactive || (cl.script == 0 && cl.statements.empty()))) {
    if (is_terminal(stdin)) print_banner();
    run_repl(L);
  }
  lua_close(L);
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace gl::interp

int main(int argc, char** argv) {
  using namespace gl::interp;
  std::setlocale(LC_CTYPE, "");  // multibyte input for libedit; numbers stay "C"
  CommandLine cl = parse_command_line(argc, argv);
  if (!cl.error.empty()) {
    write_cli_error(cl.error + "\nTry 'gpulab --help'.");
    return 2;
  }
  switch (cl.command) {
    case Command::Help:
      std::fputs(usage_text().c_str(), stdout);
      return 0;
    case Command::Version:
      std::fputs(version_report().c_str(), stdout);
      return 0;
    case Command::Lessons:
      return list_lessons();
    default:
      break;
  }
  if (cl.virtual_gpus) {
    std::string error;
    if (!gl::bindings::configure_virtual(*cl.virtual_gpus, &error)) {
      if (error.empty()) error = "invalid --virtual-gpus value '" + *cl.virtual_gpus + "'";
      write_cli_error(error);
      return 2;
    }
  }
  SessionOptions session;
  session.seed = cl.seed;
  if (cl.command == Command::Lesson) {
    LessonOptions options;
    options.echo = cl.echo;
    options.step = cl.step;
    return run_lesson(cl.target, options, session, argv);
  }
  if (cl.command == Command::Check) return run_check(cl.target, session, argv);
  if (cl.command == Command::Doctor) return run_doctor(cl.json, cl.virtual_gpus.has_value(), session);
  return run(cl, argc, argv);
}
