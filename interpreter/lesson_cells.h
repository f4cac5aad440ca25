// Lesson files are Lua split into cells by lines "-- %%" (optionally followed
// by a cell title), like the "# %%" cells of a Python script notebook. A
// cell's leading "--" comment lines are its prose (light markdown); the rest
// is its code. The lines before the first cell are the header: the title on
// the first line, then optional directives:
//   -- needs: 4 gpus              the lesson is written for 4 CUDA devices
//   -- continues: b4_model ...    lessons whose code runs first, quietly
#pragma once
#include <string>
#include <vector>

namespace gl::interp {

struct Cell {
  std::string title;               // the text after "-- %%", if any
  int first_line = 1;              // line number of `source` in the file
  std::string source;              // the cell's lines, as in the file
  std::vector<std::string> prose;  // its leading comment lines, without "-- "
  std::vector<std::string> code;   // its lines less blank and comment-only ones
  std::vector<std::string> shown;  // from its first code line to its last, as written
};

struct LessonHeader {
  std::string title;                   // the first line without "-- "
  int gpus = 0;                        // "-- needs: N gpus"
  std::vector<std::string> continues;  // "-- continues: NAME ..."
};

// Splits a lesson file into its cells; a cell with prose and no code is a text
// cell (shown, not run); cells with neither are left out.
std::vector<Cell> split_cells(const std::string& text);

// The header of a lesson file (see above).
LessonHeader parse_header(const std::string& text);

// True for a cell separator line: "-- %%" alone or followed by blanks and text.
bool is_cell_marker(const std::string& line);

// True when the text has a cell separator line: such a file is a lesson.
bool has_cells(const std::string& text);

}  // namespace gl::interp
