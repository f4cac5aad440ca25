// A gpulab Lua session: a state with the standard libraries and the bindings,
// protected calls with a message handler (as in lua.c), Ctrl-C interrupts.
#pragma once
#include <optional>
#include <string>

struct lua_State;

namespace gl::interp {

struct SessionOptions {
  std::optional<std::string> seed;  // --seed N: torch.manual_seed(N) after opening
};

// A new state with the standard libraries and gl::bindings::open. On failure
// prints "gpulab: ..." on stderr and returns nullptr.
lua_State* open_session(const SessionOptions& options);

// How a failed call reports: scripts get lua.c's traceback, the REPL, lessons
// and the checker only the message (learners read it; frames clutter it).
enum class ErrorStyle { Traceback, MessageOnly };

// Calls the function below `nargs` arguments on the top of the stack, like
// lua.c's docall: message handler, SIGINT turned into a "KeyboardInterrupt"
// error while it runs. Returns the lua_pcall status; on error the message (a
// string) is left on the stack.
int protected_call(lua_State* L, int nargs, int nresults, ErrorStyle style);

// Pops the error value on top of the stack and returns it as text.
std::string pop_error(lua_State* L);

// Builds the global `arg` table exactly as lua.c does: arg[0] = argv[script],
// arguments after it at 1.., the interpreter and options at negative indices.
// With no script (script >= argc), everything after argv[0] goes to 1...
void set_arg_table(lua_State* L, int argc, char** argv, int script);

// Runs a chunk of Lua source under protected_call (used for -e and --seed).
// On error prints "gpulab: <message>" and returns false.
bool run_string(lua_State* L, const std::string& code, const char* chunkname, ErrorStyle style);

}  // namespace gl::interp
