// A small strict JSON reader and writer for the safetensors header (RFC 8259).
// The reader is a pull parser: the caller walks the structure it expects
// (begin_object/next_key/string/uint/...) and anything else is an error that
// names the byte offset. It builds no tree, so a hostile 100 MB header costs
// no more memory than the values the caller keeps, and its nesting is bounded
// (kMaxDepth), so no input can exhaust the stack.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gl::io {

class JsonReader {
 public:
  static constexpr int kMaxDepth = 64;
  explicit JsonReader(std::string_view text) : s_(text) {}

  void begin_object();
  // The next member's key, or false (and the '}' consumed) at the end.
  bool next_key(std::string& key);
  void begin_array();
  // True when another item follows (then read it), false at ']' (consumed).
  bool next_item();
  // `what` names the value in errors: "the dtype of tensor 'x'".
  std::string string(const std::string& what);
  uint64_t uint(const std::string& what);
  bool null();  // consumes `null` and returns true when it is next
  void skip();  // any one value (nesting bounded by kMaxDepth)
  void end();   // only whitespace may remain
  char peek();  // next non-space character, 0 at the end
  size_t pos() const { return pos_; }
  [[noreturn]] void fail(const std::string& what) const;

 private:
  void ws();
  void expect(char c, const char* what);
  void literal(const char* word);
  std::string_view number_token();
  void string_into(std::string& out);
  std::string_view s_;
  size_t pos_ = 0;
  std::vector<bool> first_;  // per open object/array: no member read yet
};

// The text as a JSON string literal, quotes included (UTF-8 kept as is).
std::string json_quote(std::string_view s);
// For messages: the quoted text, cut to `max` bytes.
std::string quoted_name(std::string_view s, size_t max = 80);
bool valid_utf8(std::string_view s);

}  // namespace gl::io
