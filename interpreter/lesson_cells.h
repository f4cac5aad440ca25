// Lesson files are Lua split into cells by lines "-- %%" (optionally followed
// by a cell title), like the "# %%" cells of a Python script notebook.
#pragma once
#include <string>
#include <vector>

namespace gl::interp {

struct Cell {
  std::string title;                // the text after "-- %%", if any
  int first_line = 1;               // line number of `source` in the file
  std::string source;               // the cell's lines, as in the file
  std::vector<std::string> code;    // its lines less blank and comment-only ones
};

// Splits a lesson file into its cells; cells with no code are left out.
std::vector<Cell> split_cells(const std::string& text);

// True for a cell separator line: "-- %%" alone or followed by blanks and text.
bool is_cell_marker(const std::string& line);

}  // namespace gl::interp
