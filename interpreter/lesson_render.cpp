#include "interpreter/lesson_render.h"

namespace gl::interp {
namespace {

constexpr const char* kReset = "\x1b[0m";

std::string sgr(const Render& r, const char* code) {
  return r.color ? std::string("\x1b[") + code + "m" : std::string();
}
std::string reset(const Render& r) { return r.color ? kReset : ""; }

bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         static_cast<unsigned char>(c) >= 0x80;
}

// A list item: "- text", "* text" or "1. text" (after any indent).
bool list_item(const std::string& line, size_t* marker_end) {
  size_t i = line.find_first_not_of(' ');
  if (i == std::string::npos) return false;
  if ((line[i] == '-' || line[i] == '*') && i + 1 < line.size() && line[i + 1] == ' ') {
    *marker_end = i + 2;
    return true;
  }
  size_t j = i;
  while (j < line.size() && line[j] >= '0' && line[j] <= '9') ++j;
  if (j > i && j + 1 < line.size() && line[j] == '.' && line[j + 1] == ' ') {
    *marker_end = j + 2;
    return true;
  }
  return false;
}

}  // namespace

size_t display_width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

std::string render_inline(const Render& r, const std::string& line) {
  if (!r.color) return line;
  std::string out;
  size_t i = 0;
  while (i < line.size()) {
    char c = line[i];
    if (c == '`') {
      size_t close = line.find('`', i + 1);
      if (close != std::string::npos && close > i + 1) {
        out += sgr(r, "36") + line.substr(i + 1, close - i - 1) + reset(r);
        i = close + 1;
        continue;
      }
    }
    // *emphasis*: opens before a non-blank, closes after one, not inside a word
    // (so "a * b" and "x*y" stay as they are).
    if (c == '*' && (i == 0 || !word_char(line[i - 1])) && i + 1 < line.size() && line[i + 1] != ' ' &&
        line[i + 1] != '*') {
      size_t close = line.find('*', i + 1);
      if (close != std::string::npos && line[close - 1] != ' ' &&
          (close + 1 >= line.size() || !word_char(line[close + 1]))) {
        out += sgr(r, "3") + line.substr(i + 1, close - i - 1) + reset(r);
        i = close + 1;
        continue;
      }
    }
    out += c;
    ++i;
  }
  return out;
}

std::string render_title(const Render& r, const std::string& title) {
  std::string rule(display_width(title), '=');
  return sgr(r, "1") + title + reset(r) + "\n" + sgr(r, "2") + rule + reset(r) + "\n";
}

std::string render_heading(const Render& r, size_t index, size_t count, const std::string& title) {
  std::string number = "[" + std::to_string(index) + "/" + std::to_string(count) + "]";
  std::string out = "\n" + sgr(r, "2") + number + reset(r);
  if (!title.empty()) out += " " + sgr(r, "1;34") + title + reset(r);
  return out + "\n";
}

std::string render_prose(const Render& r, const std::vector<std::string>& prose) {
  if (prose.empty()) return {};
  std::string out;
  for (const std::string& line : prose) {
    size_t marker_end = 0;
    if (r.color && list_item(line, &marker_end)) {
      size_t indent = line.find_first_not_of(' ');
      bool bullet = line[indent] == '-' || line[indent] == '*';
      out += line.substr(0, indent) + (bullet ? "\u2022 " : line.substr(indent, marker_end - indent)) +
             render_inline(r, line.substr(marker_end));
    } else {
      out += render_inline(r, line);
    }
    out += '\n';
  }
  return out + "\n";
}

std::string render_code(const Render& r, const std::vector<std::string>& code) {
  std::string out;
  for (size_t i = 0; i < code.size(); ++i) {
    out += sgr(r, "32") + (i == 0 ? ">>> " : "... ") + reset(r);
    const std::string& line = code[i];
    size_t first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 2, "--") == 0) {
      out += sgr(r, "2") + line + reset(r);  // a comment line inside the code
    } else {
      out += sgr(r, "1") + line + reset(r);
    }
    out += '\n';
  }
  return out;
}

std::string render_note(const Render& r, const std::string& text) {
  return sgr(r, "33") + "Note: " + reset(r) + text + "\n";
}

}  // namespace gl::interp
