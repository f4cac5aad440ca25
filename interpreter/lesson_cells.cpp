#include "interpreter/lesson_cells.h"

namespace gl::interp {
namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// For "--[==[", the closing "]==]"; "" when the line opens no long comment.
std::string long_comment_close(const std::string& trimmed) {
  if (trimmed.rfind("--[", 0) != 0) return {};
  size_t i = 3;
  while (i < trimmed.size() && trimmed[i] == '=') ++i;
  if (i >= trimmed.size() || trimmed[i] != '[') return {};
  std::string close(i - 1, '=');  // "]" + as many '=' + "]"
  close.front() = ']';
  close.back() = ']';
  return close;
}

// Fills cell.code: skips blank lines, "--" comment lines and long comments.
void collect_code(Cell* cell) {
  std::string close;  // non-empty while inside a long comment
  size_t start = 0;
  const std::string& s = cell->source;
  while (start <= s.size()) {
    size_t end = s.find('\n', start);
    if (end == std::string::npos) end = s.size();
    std::string line = s.substr(start, end - start);
    start = end + 1;
    std::string t = trim(line);
    if (!close.empty()) {
      if (t.find(close) != std::string::npos) close.clear();
      continue;
    }
    if (t.empty()) continue;
    if (t.rfind("--", 0) == 0) {
      std::string c = long_comment_close(t);
      if (!c.empty() && t.find(c, 3) == std::string::npos) close = c;
      continue;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    cell->code.push_back(line);
  }
}

}  // namespace

bool is_cell_marker(const std::string& line) {
  if (line.rfind("-- %%", 0) != 0) return false;
  return line.size() == 5 || line[5] == ' ' || line[5] == '\t' || line[5] == '\r';
}

std::vector<Cell> split_cells(const std::string& text) {
  std::vector<Cell> cells;
  Cell current;
  int line_number = 0;
  size_t start = 0;
  auto finish = [&cells](Cell* cell) {
    collect_code(cell);
    if (!cell->code.empty()) cells.push_back(std::move(*cell));
  };
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (is_cell_marker(line)) {
      finish(&current);
      current = Cell{};
      current.title = trim(line.substr(5));
      current.first_line = line_number + 1;
      continue;
    }
    if (line_number > current.first_line) current.source += '\n';
    current.source += line;
  }
  finish(&current);
  return cells;
}

}  // namespace gl::interp
