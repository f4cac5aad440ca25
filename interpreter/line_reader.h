// Reads REPL input: libedit (line editing, history, tab completion) when stdin
// is a terminal, plain lines otherwise (piped input: the prompt is still
// written, as lua.c does, so transcripts show where each input went).
#pragma once
#include <string>

struct lua_State;

namespace gl::interp {

class LineReader {
 public:
  enum class Result { Line, EndOfInput, Interrupted };

  // `L` is the state whose globals tab completion looks at.
  explicit LineReader(lua_State* L);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  bool interactive() const { return interactive_; }

  // Reads one line (without its newline) into `line`. Interrupted: Ctrl-C at
  // the prompt (terminal only).
  Result read(const char* prompt, std::string* line);

  // Remembers a complete input (terminal only; saved to ~/.gpulab_history).
  void remember(const std::string& input);

 private:
  bool interactive_;
  std::string history_file_;
};

}  // namespace gl::interp
