#include "interpreter/kernel/notebook_export.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "interpreter/lesson_cells.h"
#include "interpreter/lessons.h"
#include "interpreter/terminal.h"

namespace gl::interp {
namespace {

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

// nbformat's multiline string: a list of lines, each but the last with its "\n".
std::string source_json(const std::vector<std::string>& lines) {
  std::string out = "[";
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += ", ";
    out += json_string(lines[i] + (i + 1 < lines.size() ? "\n" : ""));
  }
  return out + "]";
}

std::string markdown_cell(const std::vector<std::string>& lines) {
  return "  {\"cell_type\": \"markdown\", \"metadata\": {}, \"source\": " + source_json(lines) + "}";
}

std::string code_cell(const std::vector<std::string>& lines, const std::string& metadata = "{}") {
  return "  {\"cell_type\": \"code\", \"execution_count\": null, \"metadata\": " + metadata +
         ", \"outputs\": [], \"source\": " + source_json(lines) + "}";
}

bool is_list_item(const std::string& line) {
  if (line.size() > 1 && (line[0] == '-' || line[0] == '*' || line[0] == '+') && line[1] == ' ') return true;
  size_t i = 0;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
  return i > 0 && i + 1 < line.size() && (line[i] == '.' || line[i] == ')') && line[i + 1] == ' ';
}

// A cell's prose as markdown. The terminal prints prose lines as they are, and
// an indented run of them that continues no list item is printed output or a
// command (`  epoch 1, loss 0.787, ...`): markdown would join it into the
// paragraph, so it becomes a fenced block, less its common indentation.
std::vector<std::string> prose_markdown(const std::vector<std::string>& prose) {
  std::vector<std::string> md;
  bool in_list = false;
  for (size_t i = 0; i < prose.size();) {
    const std::string& line = prose[i];
    size_t indent = line.find_first_not_of(' ');
    if (indent == std::string::npos || indent == 0 || in_list) {
      if (indent == std::string::npos) in_list = false;  // a blank line ends a list
      else if (indent == 0) in_list = is_list_item(line);
      md.push_back(line);
      ++i;
      continue;
    }
    size_t end = i, common = indent;
    for (; end < prose.size(); ++end) {
      size_t k = prose[end].find_first_not_of(' ');
      if (k == std::string::npos || k == 0) break;
      common = std::min(common, k);
    }
    if (!md.empty() && !md.back().empty()) md.push_back("");
    md.push_back("```");
    for (size_t j = i; j < end; ++j) md.push_back(prose[j].substr(common));
    md.push_back("```");
    if (end < prose.size() && !prose[end].empty()) md.push_back("");
    i = end;
  }
  return md;
}

bool read_file(const std::string& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  if (!in || !(s << in.rdbuf())) return false;
  *text = s.str();
  return true;
}

// A lesson cell's code as a quiet setup cell: its last statement (where a
// cell may end with a bare expression to echo) gets a `;`, which silences it.
std::string quiet_cell(std::string source) {
  while (!source.empty() && (source.back() == '\n' || source.back() == ' ')) source.pop_back();
  size_t end = source.size();
  for (;;) {  // the last line that is not a comment
    size_t start = source.rfind('\n', end == 0 ? 0 : end - 1);
    start = start == std::string::npos || end == 0 ? 0 : start + 1;
    size_t first = source.find_first_not_of(" \t", start);
    if (first < end && source.compare(first, 2, "--") != 0) {
      source.insert(end, ";");
      break;
    }
    if (start == 0) break;
    end = start - 1;
  }
  return source;
}

// The code cells of the lessons `text` continues (and of those they continue), in order.
bool continued_code(const std::string& text, std::vector<std::string>* code, std::string* error, int depth = 0) {
  if (depth > 16) return true;
  for (const std::string& name : parse_header(text).continues) {
    std::string path, other;
    if (!find_lesson(name, &path, error) || !read_file(path, &other)) {
      if (error->empty()) *error = "cannot read lesson '" + name + "'";
      return false;
    }
    if (!continued_code(other, code, error, depth + 1)) return false;
    for (const Cell& cell : split_cells(other))
      if (!cell.code.empty()) code->push_back(quiet_cell(cell.source));
  }
  return true;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

int write_notebook(const std::string& path, const std::string& out) {
  std::string text, error;
  std::vector<std::string> continued;
  if (!read_file(path, &text)) {
    write_cli_error("cannot read lesson file '" + path + "'");
    return 1;
  }
  if (!continued_code(text, &continued, &error)) {
    write_cli_error(error);
    return 1;
  }
  std::ofstream file(out, std::ios::binary | std::ios::trunc);
  file << lesson_notebook(text, continued);
  file.close();
  if (!file) {
    write_cli_error("cannot write '" + out + "'");
    return 1;
  }
  return 0;
}

}  // namespace

std::string lesson_notebook(const std::string& text, const std::vector<std::string>& continued) {
  LessonHeader header = parse_header(text);
  std::vector<std::string> cells;
  cells.push_back(markdown_cell({"# " + header.title}));
  // Cells tagged "gpulab-setup" prepare the session as `gpulab lesson` does;
  // they are not cells of the lesson.
  const std::string setup = "{\"tags\": [\"gpulab-setup\"]}";
  if (header.gpus > 0) {
    const std::string n = std::to_string(header.gpus);
    cells.push_back(
        code_cell({"-- This lesson is written for " + n + " GPU" + (header.gpus > 1 ? "s" : "") +
                       ": here they are virtual ones, emulated in host memory",
                   "-- (leave this cell out on a machine with real GPUs).", "torch.cuda.use_virtual(" + n + ")"},
                  setup));
  }
  // One setup cell per code cell of the lessons it continues: a bare
  // expression may end a cell, not sit in the middle of one.
  for (size_t i = 0; i < continued.size(); ++i) {
    std::vector<std::string> lines;
    if (i == 0) {
      std::string names;
      for (const std::string& c : header.continues) names += (names.empty() ? "" : ", ") + c;
      lines.push_back("-- This lesson continues " + names + ": their code runs first.");
    }
    for (const std::string& l : lines_of(continued[i])) lines.push_back(l);
    cells.push_back(code_cell(lines, setup));
  }
  for (const Cell& cell : split_cells(text)) {
    std::vector<std::string> md;
    if (!cell.title.empty()) md.push_back("## " + cell.title);
    if (!cell.title.empty() && !cell.prose.empty()) md.push_back("");
    for (const std::string& p : prose_markdown(cell.prose)) md.push_back(p);
    if (!md.empty()) cells.push_back(markdown_cell(md));
    if (!cell.code.empty()) cells.push_back(code_cell(cell.shown));
  }
  std::string out = "{\n \"cells\": [\n";
  for (size_t i = 0; i < cells.size(); ++i) out += cells[i] + (i + 1 < cells.size() ? ",\n" : "\n");
  out +=
      " ],\n \"metadata\": {\n"
      "  \"kernelspec\": {\"name\": \"gpulab\", \"display_name\": \"gpulab (Lua)\", \"language\": \"lua\"},\n"
      "  \"language_info\": {\"name\": \"lua\", \"file_extension\": \".lua\", \"mimetype\": \"text/x-lua\"}\n"
      " },\n \"nbformat\": 4,\n \"nbformat_minor\": 4\n}\n";
  return out;
}

int export_lesson_notebook(const std::string& name, const std::string& out) {
  std::string path, error;
  if (!find_lesson(name, &path, &error)) {
    write_cli_error(error);
    return 1;
  }
  return write_notebook(path, out);
}

int export_course_notebooks(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::vector<std::string> paths = lesson_paths();
  if (paths.empty()) {
    write_cli_error("no lessons found (GPULAB_LESSONS names the lessons directory)");
    return 1;
  }
  int status = 0;
  for (const std::string& path : paths) {
    std::string out = dir + "/" + std::filesystem::path(path).stem().string() + ".ipynb";
    if (write_notebook(path, out) != 0) status = 1;
  }
  if (status == 0) std::printf("Wrote %zu notebooks to %s\n", paths.size(), dir.c_str());
  return status;
}

}  // namespace gl::interp
