// gpulab: the command line (modelled on Lua's lua.c). See usage_text().
#include <clocale>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <lua.hpp>

#include "bindings/bindings.h"
#include "interpreter/command_line.h"
#include "interpreter/exercises.h"
#include "interpreter/lesson_cells.h"
#include "interpreter/doctor.h"
#include "interpreter/launcher.h"
#include "interpreter/kernel/kernel.h"
#include "interpreter/kernel/notebook_export.h"
#include "interpreter/lessons.h"
#include "interpreter/repl.h"
#include "interpreter/session.h"
#include "interpreter/terminal.h"
#include "interpreter/version.h"
#include "tensor/runtime/registry.h"

namespace gl::interp {
namespace {

// Runs argv[script] (standard input for "-") with arg[1..] as `...`.
bool run_script(lua_State* L, int argc, char** argv, int script) {
  std::string name = argv[script];
  bool from_stdin = name == "-" && std::string(argv[script - 1]) != "--";
  if (!from_stdin) {  // a file with "-- %%" cells is a lesson: run it as a notebook
    std::ifstream in(name, std::ios::binary);
    std::ostringstream text;
    if (in && (text << in.rdbuf()) && has_cells(text.str()))
      return run_lesson_in(L, name, text.str(), LessonOptions{}) == 0;
  }
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
  // -i enters the REPL after an error too, and its status is then the REPL's
  // (python -i); piped input given to -i carries on after errors, as there.
  if (cl.interactive || (ok && cl.script == 0 && cl.statements.empty())) {
    // The banner only for a bare REPL: after a script or -e, as python -i, none.
    if (is_terminal(stdin) && cl.script == 0 && cl.statements.empty()) print_banner(L);
    int status = run_repl(L, cl.interactive);
    ok = status == 0;
  }
  lua_close(L);
  gl::release_devices();  // Note [Teardown]
  return ok ? 0 : 1;
}

}  // namespace
}  // namespace gl::interp

int main(int argc, char** argv) {
  using namespace gl::interp;
  std::setlocale(LC_CTYPE, "");  // multibyte input for libedit; numbers stay "C"
  if (argc >= 2 && std::string(argv[1]) == "run") return run_launcher(argc, argv);  // its own options
  CommandLine cl = parse_command_line(argc, argv);
  if (!cl.error.empty()) {
    write_cli_error(cl.error + "\nTry 'gpulab --help'.");
    return 2;
  }
  switch (cl.command) {
    case Command::Help: std::fputs(usage_text().c_str(), stdout); return 0;
    case Command::Version: std::fputs(version_report().c_str(), stdout); return 0;
    case Command::Exercise: return copy_exercise(cl.target);
    default: break;
  }
  if (cl.virtual_gpus) {
    std::string error;
    if (!gl::bindings::configure_virtual(*cl.virtual_gpus, &error)) {
      if (error.empty()) error = "invalid --virtual-gpus value '" + *cl.virtual_gpus + "'";
      write_cli_error(error);
      return 2;
    }
  }
  if (cl.command == Command::Lessons && cl.ipynb) return export_course_notebooks(*cl.ipynb);
  if (cl.command == Command::Lesson && cl.ipynb) return export_lesson_notebook(cl.target, *cl.ipynb);
  if (cl.command == Command::Lessons) return list_lessons();  // after --virtual-gpus: no advice then
  SessionOptions session;
  session.seed = cl.seed;
  if (cl.command == Command::Lesson) {
    // A lesson's text quotes the figures of its seed-0 run (the transcripts'
    // too): the learner's run prints them unless --seed says otherwise.
    if (!session.seed) session.seed = "0";
    LessonOptions options;
    options.quiet = cl.quiet;
    options.step = cl.step;
    options.interactive = cl.interactive;
    return run_lesson(cl.target, options, session, argv);
  }
  if (cl.command == Command::Check) return run_check(cl.target, session, argv);
  if (cl.command == Command::Kernel) return run_kernel_command(cl, session);
  if (cl.command == Command::Doctor) return run_doctor(cl.json, cl.virtual_gpus.has_value(), session);
  return run(cl, argc, argv);
}
