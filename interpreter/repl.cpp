#include "interpreter/repl.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include <lua.hpp>

#include "bindings/bindings.h"
#include "interpreter/evaluate.h"
#include "interpreter/interrupt.h"
#include "interpreter/line_reader.h"
#include "interpreter/nvidia_smi.h"
#include "interpreter/terminal.h"
#include "interpreter/timing.h"
#include "interpreter/version.h"
#include "tensor/runtime/build_info.h"

namespace gl::interp {
namespace {

bool blank(const std::string& s) { return s.find_first_not_of(" \t\r") == std::string::npos; }

bool is_shell_line(const std::string& line) {
  size_t first = line.find_first_not_of(" \t");
  return first != std::string::npos && line[first] == '!';
}

}  // namespace

// `!cmd` runs a shell command, as in the notebooks the tutorials come from.
void run_shell(const std::string& line) {
  std::string command = line.substr(line.find('!') + 1);
  std::fflush(stdout);
  if (blank(command) || nvidia_smi_fallback(command)) return;
  int status = std::system(command.c_str());
  if (status == -1) write_error("cannot run the shell command");
}

void print_banner(lua_State* L) {
  std::string text = std::string(kVersionLine) + " \u2014 PyTorch-style tensors with CUDA devices\n";
  std::string devices = gl::bindings::device_banner();
  if (devices.empty()) {  // no virtual devices asked for: a driver means real GPUs
    devices = gl::runtime::cuda_driver_version().empty()
                  ? "No GPU found: run with --virtual-gpus 2 (or call torch.cuda.use_virtual(2)) for "
                    "virtual CUDA devices."
                  : gl::runtime::cuda_banner_line();
  }
  if (!devices.empty()) text += devices + "\n";
  text += "Type help() for help, Ctrl-D to exit. Indices and dims count from 0, as in PyTorch.";
  std::fputs(paint(stdout, kDim, text).c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

int run_repl(lua_State* L, bool keep_going) {
  QuietInterrupts quiet;
  LineReader reader(L);
  // Piped input runs as a script would (python3 -): no prompts, and the first
  // error ends it with status 1.
  const bool interactive = reader.interactive();
  Timer timer;
  std::string input;  // the (possibly multi-line) input gathered so far
  std::string line;
  int cell = 1;         // inputs are named In[1], In[2], ... as in IPython
  int blank_lines = 0;  // consecutive blank lines inside a continuation
  auto failed = [&](bool ok) { return !ok && !interactive && !keep_going; };
  for (;;) {
    const char* prompt = !interactive ? "" : input.empty() ? kPrompt : kContinuationPrompt;
    auto got = reader.read(prompt, &line);
    if (got == LineReader::Result::Interrupted) {  // Ctrl-C at a prompt drops the input, as in Python
      std::fputc('\n', stdout);
      write_error("KeyboardInterrupt");
      input.clear();
      blank_lines = 0;
      continue;
    }
    if (got == LineReader::Result::EndOfInput) {
      if (interactive) std::fputc('\n', stdout);
      std::fflush(stdout);
      if (!input.empty()) {  // input ended inside a statement: report it as lua.c does
        reader.remember(input);
        if (failed(evaluate(L, input, cell_chunkname(cell).c_str(), 1, echo_suppressed(input)))) return 1;
      }
      return 0;
    }
    if (input.empty()) {
      if (blank(line)) continue;
      if (is_shell_line(line)) {
        reader.remember(line);
        run_shell(line);
        continue;
      }
      if (auto help = help_request(line)) line = *help;  // ?name, name?
      bool ok = true;
      if (run_magic(L, line, cell_chunkname(cell).c_str(), &timer, &ok)) {
        reader.remember(line);
        ++cell;
        if (failed(ok)) return 1;
        continue;
      }
      input = line;
    } else {
      // Two blank lines in a row leave a continuation, with its parse error.
      blank_lines = blank(line) ? blank_lines + 1 : 0;
      if (blank_lines >= 2) {
        reader.remember(input);
        bool ok = evaluate(L, input, cell_chunkname(cell++).c_str(), 1, true);
        input.clear();
        blank_lines = 0;
        if (failed(ok)) return 1;
        continue;
      }
      input += '\n';
      input += line;
    }
    const std::string chunkname = cell_chunkname(cell);
    Compilation c = compile_input(L, input, chunkname.c_str());
    // "loss:backward(); x.grad" is no Lua statement, and after "x = f(); x:sum()"
    // IPython echoes the sum: echo the last statement when it is an expression
    // (Note [Final expression]), rather than wait for more input or stay silent.
    if (!(c.status == Compiled::Ok && c.expression)) {
      if (std::string echoing = with_final_return(L, input); !echoing.empty()) {
        if (c.status == Compiled::Ok) lua_pop(L, 1);  // the statements' chunk
        c = compile_input(L, echoing, chunkname.c_str());
      }
    }
    if (c.status == Compiled::Incomplete) continue;
    reader.remember(input);
    bool ok = false;
    if (c.status == Compiled::Error) {
      write_cell_error(L, c.error, input);
    } else {
      // `return 1, 2` echoes too, as in lua.c
      ok = timed(L, timer, [&] { return run_cell(L, input, chunkname.c_str(), !echo_suppressed(input)); });
    }
    ++cell;
    input.clear();
    blank_lines = 0;
    if (failed(ok)) return 1;
  }
}

}  // namespace gl::interp
