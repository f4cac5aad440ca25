#include "interpreter/terminal.h"

#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace gl::interp {

bool is_terminal(std::FILE* f) { return isatty(fileno(f)) == 1; }

bool color_enabled(std::FILE* f) {
  if (!is_terminal(f)) return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && no_color[0] != '\0') return false;
  const char* term = std::getenv("TERM");
  return term == nullptr || std::strcmp(term, "dumb") != 0;
}

std::string paint(std::FILE* f, const char* sgr, std::string_view text) {
  if (!color_enabled(f)) return std::string(text);
  std::string out = "\x1b[";
  out += sgr;
  out += 'm';
  out += text;
  out += "\x1b[0m";
  return out;
}

namespace {
ErrorSink g_error_sink = nullptr;
}  // namespace

void set_error_sink(ErrorSink sink) { g_error_sink = sink; }

void write_error(std::string_view message) {
  std::fflush(stdout);
  if (g_error_sink != nullptr) {
    g_error_sink(message);
    return;
  }
  while (!message.empty() && message.back() == '\n') message.remove_suffix(1);
  bool in_traceback = false;
  std::string out;
  size_t start = 0;
  while (start <= message.size()) {  // one pass per line, the last one included
    size_t end = message.find('\n', start);
    if (end == std::string_view::npos) end = message.size();
    std::string_view line = message.substr(start, end - start);
    if (line.rfind("stack traceback:", 0) == 0) in_traceback = true;
    const char* sgr = in_traceback ? kDim : line.rfind("hint:", 0) == 0 ? kYellow : kRed;
    out += paint(stderr, sgr, line);
    out += '\n';
    start = end + 1;
  }
  std::fputs(out.c_str(), stderr);
  std::fflush(stderr);
}

void write_cli_error(std::string_view message) {
  std::string text = "gpulab: ";
  text += message;
  write_error(text);
}

}  // namespace gl::interp
