// REPL-style evaluation of a piece of input, shared by the REPL and lessons:
// try `return <input>` so that expressions echo their repr, else compile the
// input as statements; tell incomplete input apart (lua.c's "<eof>" check).
#pragma once
#include <string>

struct lua_State;

namespace gl::interp {

enum class Compiled { Ok, Incomplete, Error };

struct Compilation {
  Compiled status = Compiled::Error;
  bool expression = false;  // compiled as `return <input>`
  std::string error;        // the syntax error, when status == Error
};

// Compiles `input`. On Ok the chunk is pushed on the stack; nothing otherwise.
// `first_line` is the line number the input starts at (for error messages in
// lessons: the chunk is padded so that line numbers match the file).
Compilation compile_input(lua_State* L, const std::string& input, const char* chunkname,
                          int first_line = 1);

// True when the input ends with ';' (trailing blanks ignored): no echo.
bool echo_suppressed(const std::string& input);

// Runs the chunk on the top of the stack. When `echo`, each value it returns is
// printed with the global repr, one per line. Errors (message only) are
// written to stderr. Returns true when it ran without error.
bool run_compiled(lua_State* L, bool echo);

// Compile + run, writing syntax errors too (incomplete input is an error here).
// What the chunk returns (an expression's value) echoes unless `suppress_echo`.
bool evaluate(lua_State* L, const std::string& input, const char* chunkname, int first_line,
              bool suppress_echo);

}  // namespace gl::interp
