// Terminal helpers: is a stream a terminal, may we colour it, and how errors
// are written (stdout flushed first, so piped transcripts keep their order).
#pragma once
#include <cstdio>
#include <string>
#include <string_view>

namespace gl::interp {

bool is_terminal(std::FILE* f);

// True when `f` is a terminal, NO_COLOR is unset (or empty) and TERM is not "dumb".
bool color_enabled(std::FILE* f);

// SGR codes used by the interpreter.
inline constexpr const char* kRed = "31";
inline constexpr const char* kYellow = "33";
inline constexpr const char* kDim = "2";

// `text` wrapped in the SGR code when `f` takes colour, otherwise `text` itself.
std::string paint(std::FILE* f, const char* sgr, std::string_view text);

// Writes an error message (any number of lines) to stderr: the message in red,
// `hint:` lines in yellow, traceback lines dim, when stderr takes colour.
void write_error(std::string_view message);

// Where write_error's messages go instead of stderr while set (the Jupyter
// kernel turns them into `error` replies); nullptr restores stderr.
using ErrorSink = void (*)(std::string_view message);
void set_error_sink(ErrorSink sink);

// "gpulab: <message>" on stderr, for command-line problems.
void write_cli_error(std::string_view message);

}  // namespace gl::interp
