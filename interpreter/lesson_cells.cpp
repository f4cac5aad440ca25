#include "interpreter/lesson_cells.h"

#include <sstream>

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

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find('\n', start);
    if (end == std::string::npos) end = s.size();
    std::string line = s.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

// "-- text" -> "text"; "--" -> "".
std::string comment_text(const std::string& trimmed) {
  std::string t = trimmed.substr(2);
  if (!t.empty() && t[0] == ' ') t.erase(0, 1);
  return t;
}

// Fills prose, code and shown: skips blank lines, "--" comment lines and long
// comments for `code`; leading comment lines are the prose.
void collect(Cell* cell) {
  std::string close;  // non-empty while inside a long comment
  const std::vector<std::string> lines = lines_of(cell->source);
  size_t first_code = lines.size(), last_code = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    std::string t = trim(line);
    if (!close.empty()) {
      if (t.find(close) != std::string::npos) close.clear();
      continue;
    }
    if (t.empty()) {
      if (first_code == lines.size() && !cell->prose.empty()) cell->prose.push_back("");
      continue;
    }
    if (t.rfind("--", 0) == 0) {
      std::string c = long_comment_close(t);
      if (!c.empty() && t.find(c, 3) == std::string::npos) close = c;
      if (first_code == lines.size() && c.empty()) cell->prose.push_back(comment_text(t));
      continue;
    }
    cell->code.push_back(line);
    if (first_code == lines.size()) first_code = i;
    last_code = i;
  }
  while (!cell->prose.empty() && cell->prose.back().empty()) cell->prose.pop_back();
  for (size_t i = first_code; i <= last_code && i < lines.size(); ++i) cell->shown.push_back(lines[i]);
}

}  // namespace

bool is_cell_marker(const std::string& line) {
  if (line.rfind("-- %%", 0) != 0) return false;
  return line.size() == 5 || line[5] == ' ' || line[5] == '\t' || line[5] == '\r';
}

bool has_cells(const std::string& text) {
  for (const std::string& line : lines_of(text))
    if (is_cell_marker(line)) return true;
  return false;
}

std::vector<Cell> split_cells(const std::string& text) {
  std::vector<Cell> cells;
  Cell current;
  int line_number = 0;
  size_t start = 0;
  auto finish = [&cells](Cell* cell) {
    collect(cell);
    bool header = cell->first_line == 1;  // its comments are the title and directives
    if (!cell->code.empty() || (!header && !cell->prose.empty())) cells.push_back(std::move(*cell));
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
  // Header lines (title, directives) are not prose of a cell before the first marker.
  if (!cells.empty() && cells[0].first_line == 1) cells[0].prose.clear();
  return cells;
}

LessonHeader parse_header(const std::string& text) {
  LessonHeader h;
  bool first = true;
  for (const std::string& raw : lines_of(text)) {
    if (is_cell_marker(raw)) break;
    std::string t = trim(raw);
    if (t.rfind("--", 0) != 0) {
      first = false;
      continue;
    }
    std::string c = comment_text(t);
    if (first) {
      h.title = c;
      first = false;
      continue;
    }
    std::istringstream words(c);
    std::string key;
    words >> key;
    if (key == "needs:") {
      int n = 0;
      std::string unit;
      if (words >> n >> unit && (unit == "gpus" || unit == "gpu") && n > 0) h.gpus = n;
    } else if (key == "continues:") {
      std::string name;
      while (words >> name) h.continues.push_back(name);
    }
  }
  return h;
}

}  // namespace gl::interp
