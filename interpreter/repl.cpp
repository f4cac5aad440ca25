#include "interpreter/repl.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include <lua.hpp>

#include "bindings/bindings.h"
#include "interpreter/evaluate.h"
#include "interpreter/line_reader.h"
#include "interpreter/terminal.h"
#include "interpreter/version.h"
#include "tensor/runtime/build_info.h"

namespace gl::interp {
namespace {

constexpr const char* kChunkName = "=stdin";

bool blank(const std::string& s) { return s.find_first_not_of(" \t\r") == std::string::npos; }

// `!cmd` runs a shell command, as in the notebooks the tutorials come from.
void run_shell(const std::string& line) {
  std::string command = line.substr(line.find('!') + 1);
  std::fflush(stdout);
  if (blank(command)) return;
  int status = std::system(command.c_str());
  if (status == -1) write_error("cannot run the shell command");
}

bool is_shell_line(const std::string& line) {
  size_t first = line.find_first_not_of(" \t");
  return first != std::string::npos && line[first] == '!';
}

}  // namespace

void print_banner() {
  std::string text = std::string(kVersionLine) + " \u2014 PyTorch-style tensors with CUDA devices\n";
  std::string devices = gl::bindings::device_banner();
  if (devices.empty()) devices = gl::runtime::cuda_banner_line();  // no virtual devices asked for
  if (!devices.empty()) text += devices + "\n";
  text += "Type help() for help, Ctrl-D to exit. Indices and dims count from 0, as in PyTorch.";
  std::fputs(paint(stdout, kDim, text).c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

int run_repl(lua_State* L) {
  LineReader reader(L);
  std::string input;  // the (possibly multi-line) input gathered so far
  std::string line;
  for (;;) {
    auto got = reader.read(input.empty() ? kPrompt : kContinuationPrompt, &line);
    if (got == LineReader::Result::Interrupted) {  // Ctrl-C at the prompt: drop the input
      std::fputc('\n', stdout);
      std::fflush(stdout);
      input.clear();
      continue;
    }
    if (got == LineReader::Result::EndOfInput) {
      std::fputc('\n', stdout);
      std::fflush(stdout);
      if (!input.empty()) {  // input ended inside a statement: report it as lua.c does
        reader.remember(input);
        evaluate(L, input, kChunkName, 1, echo_suppressed(input));
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
      input = line;
    } else {
      input += '\n';
      input += line;
    }
    Compilation c = compile_input(L, input, kChunkName);
    if (c.status == Compiled::Incomplete) continue;
    reader.remember(input);
    if (c.status == Compiled::Error) {
      write_error(c.error);
    } else {
      run_compiled(L, !echo_suppressed(input));  // `return 1, 2` echoes too, as in lua.c
    }
    input.clear();
  }
}

}  // namespace gl::interp
