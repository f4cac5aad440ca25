// REPL-style evaluation of a piece of input, shared by the REPL and lessons:
// try `return <input>` so that expressions echo their repr, else compile the
// input as statements; tell incomplete input apart (lua.c's "<eof>" check).
#pragma once
#include <optional>
#include <string>
#include <vector>

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
Compilation compile_input(lua_State* L, const std::string& input, const char* chunkname, int first_line = 1);

// Note [Final expression]: IPython echoes a cell's last expression, also after
// statements ("x = f()\nx.device", "loss:backward(); x.grad"). This returns the
// source with "return " put before its last statement (after its last newline
// or top-level ';') when that is an expression, or "" when it is not. The part
// before must compile on its own, so the split is between statements, never
// inside a string or a block.
std::string with_final_return(lua_State* L, const std::string& source);

// Where a last statement may start, in order: 0 and after each newline or
// ';' (IPython splits statements at both). A split inside a string or a block
// leaves a head that does not load on its own; callers check that.
std::vector<size_t> statement_starts(const std::string& source);

// Would the tail from `start`, after a newline, continue the statement before
// it (`x = f` then `(g)`, `-1`, `{...}`, `"s"`, `or y`)? Lua reads such source
// as one statement: where the whole compiles, keep it so rather than echo the
// tail. After a ';' the statement has ended: never.
bool joins_previous(const std::string& source, size_t start);

// True when the input ends with ';' (trailing blanks ignored): no echo.
bool echo_suppressed(const std::string& input);

// Runs the chunk on the top of the stack. When `echo`, each value it returns is
// printed with the global repr, one per line. Errors (message only) are
// written to stderr. Returns true when it ran without error.
bool run_compiled(lua_State* L, bool echo);

// Compile + run, writing syntax errors too (incomplete input is an error here).
// What the chunk returns (an expression's value) echoes unless `suppress_echo`.
bool evaluate(lua_State* L, const std::string& input, const char* chunkname, int first_line, bool suppress_echo);

// ---- the REPL's cells ----
// The chunk name of the REPL's N-th input: "=In[N]", as IPython numbers cells.
std::string cell_chunkname(int n);

// Note [Undefined names] (bindings/lua/70_strict_names.lua): in the chunk whose
// source is `source` ("@path" for a file), reading an undefined global is an
// error, as in the REPL's cells. For the file `gpulab check` grades.
void mark_learner_source(lua_State* L, const std::string& source);

// `?name`, `name?` (IPython, th): the Lua call that shows its help, or nothing
// when the line is not such a request.
std::optional<std::string> help_request(const std::string& line);

// Writes a syntax error of a cell with the line, a caret and a hint for the
// Python habit that caused it, where one applies.
void write_cell_error(lua_State* L, const std::string& message, const std::string& input);

// Like run_compiled for a REPL cell: errors are explained (traceback trimmed to
// the user's cells, caret, did-you-mean, hints), and `foo` alone, undefined,
// is a NameError instead of echoing nil.
bool run_cell(lua_State* L, const std::string& input, const char* chunkname, bool echo);
// The same where the echoed expression is only the end of `input` (a Jupyter
// cell: statements, then the last one's value): `echoed` is that expression.
bool run_cell(lua_State* L, const std::string& input, const char* chunkname, bool echo, const std::string& echoed);

// Where echoed values go instead of stdout while set (the Jupyter kernel's
// execute_result). Called under a protected call with the n values at stack
// slots 1..n and their echo text (no final newline); it must not raise.
using EchoSink = void (*)(lua_State* L, int n, const char* text, size_t len);
void set_echo_sink(EchoSink sink);

// Pushes the echo text of the n values at first..first+n-1 (gpulab.echo's,
// else their reprs one per line, as the REPL prints them). May raise.
void push_echo_text(lua_State* L, int first, int n);

// Note [Guards left on the prompt] (left_guards.cpp): closes each value of
// first..first+n-1 that is a guard (torch.no_grad(), torch.autocast(...)) and
// pushes the hint to show; returns false, pushing nothing, when none is.
bool close_echoed_guards(lua_State* L, int first, int n);

}  // namespace gl::interp
