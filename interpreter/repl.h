// The read-eval-print loop (modelled on lua.c's doREPL).
#pragma once
#include <string>

struct lua_State;

namespace gl::interp {

// The prompts: Python's, since gpulab mirrors the PyTorch notebooks and
// sessions that the lessons come from.
inline constexpr const char* kPrompt = ">>> ";
inline constexpr const char* kContinuationPrompt = "... ";

// Prints the start-up banner (dim when stdout takes colour); without any CUDA
// device, one line says how to get virtual ones.
void print_banner(lua_State* L);

// Runs the REPL on `L` until end of input (Ctrl-D). Returns the exit status:
// 0, or 1 when piped (non-terminal) input stopped at its first error
// (unless `keep_going`: -i, where piped input carries on as python -i does).
int run_repl(lua_State* L, bool keep_going = false);

// `!cmd`: runs the shell command after the '!' (nvidia-smi answered by gpulab
// where the real one is missing), as the REPL and the Jupyter kernel do.
void run_shell(const std::string& line);

}  // namespace gl::interp
