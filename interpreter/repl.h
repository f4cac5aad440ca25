// The read-eval-print loop (modelled on lua.c's doREPL).
#pragma once

struct lua_State;

namespace gl::interp {

// The prompts: Python's, since gpulab mirrors the PyTorch notebooks and
// sessions that the lessons come from.
inline constexpr const char* kPrompt = ">>> ";
inline constexpr const char* kContinuationPrompt = "... ";

// Prints the start-up banner (dim when stdout takes colour).
void print_banner();

// Runs the REPL on `L` until end of input (Ctrl-D). Returns the exit status (0).
int run_repl(lua_State* L);

}  // namespace gl::interp
