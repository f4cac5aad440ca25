// Jupyter counts cursor positions in Unicode code points; Lua strings are bytes.
#pragma once
#include <string>

namespace gl::interp {

// The byte offset of code point `cursor` in UTF-8 `text` (its size past the end).
inline size_t byte_offset(const std::string& text, int cursor) {
  size_t i = 0;
  for (int n = 0; n < cursor && i < text.size(); ++n) {
    ++i;
    while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;
  }
  return i;
}

// The code point index of byte offset `bytes` in UTF-8 `text`.
inline int codepoint_offset(const std::string& text, size_t bytes) {
  int n = 0;
  for (size_t i = 0; i < bytes && i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++n;
  return n;
}

}  // namespace gl::interp
