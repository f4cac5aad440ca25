// A Jupyter cell as IPython runs one: Lua code, with `!cmd` lines, `%magic`
// lines and `?name` help lines among it; the whole cell runs, and the value of
// its last statement echoes when that statement is an expression.
#pragma once
#include <string>
#include <vector>

#include "interpreter/evaluate.h"

struct lua_State;

namespace gl::interp {

struct CellPart {
  enum Kind { Lua, Shell, Magic } kind = Lua;
  std::string text;    // Lua source, the `!cmd` line, or the `%magic` line
  int first_line = 1;  // the cell's line the part starts on
};

// Splits a cell into its parts, in order. `?name` lines become Lua help calls.
std::vector<CellPart> split_cell(const std::string& cell);

struct CellChunk {
  Compiled status = Compiled::Error;
  std::string error;   // the syntax error, when status == Error
  bool echo = false;   // the chunk returns the last statement's value
  std::string echoed;  // that expression's source
};

// Loads Lua source (lines first_line.. of a cell) as one chunk, so that locals
// reach the last line: the whole source as an expression, else its leading
// statements followed by `return <last expression>`, else plain statements.
// On Ok the chunk is pushed on the stack; nothing otherwise.
CellChunk load_cell_chunk(lua_State* L, const std::string& source, const char* chunkname, int first_line);

}  // namespace gl::interp
