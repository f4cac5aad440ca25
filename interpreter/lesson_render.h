// How a lesson looks in the terminal: a notebook of title, cell headings,
// prose (light markdown: *emphasis*, `code`, "- " lists), code with prompts,
// then the output the code prints. Colour where the stream takes it
// (terminal.h's color_enabled), plain text under NO_COLOR or in a pipe.
#pragma once
#include <string>
#include <vector>

namespace gl::interp {

struct Render {
  bool color = false;
};

// "Title\n=====\n" (the rule as wide as the title).
std::string render_title(const Render& r, const std::string& title);

// "\n[3/9] Cell title\n".
std::string render_heading(const Render& r, size_t index, size_t count, const std::string& title);

// The prose lines with their inline markdown, then a blank line ("" if none).
std::string render_prose(const Render& r, const std::vector<std::string>& prose);

// The code lines: ">>> " before the first, "... " before the others.
std::string render_code(const Render& r, const std::vector<std::string>& code);

// A note from the runner (devices, what ran quietly): "Note: ..." dim.
std::string render_note(const Render& r, const std::string& text);

// Inline markdown of one line: *emphasis* in italics, `code` in cyan, when
// coloured; the text as written otherwise.
std::string render_inline(const Render& r, const std::string& line);

// Columns a UTF-8 string takes (one per code point).
size_t display_width(const std::string& s);

}  // namespace gl::interp
