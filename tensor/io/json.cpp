#include "tensor/io/json.h"
#include "tensor/core/error.h"

namespace gl::io {

namespace {
std::string shown(std::string_view tok) {
  return tok.size() > 40 ? std::string(tok.substr(0, 40)) + "..." : std::string(tok);
}
int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
void put_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}
}  // namespace

void JsonReader::fail(const std::string& what) const {
  throw RuntimeError(cat("invalid JSON at byte ", pos_, " of the header: ", what));
}

void JsonReader::ws() {
  while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
}

char JsonReader::peek() {
  ws();
  return pos_ < s_.size() ? s_[pos_] : 0;
}

void JsonReader::expect(char c, const char* what) {
  if (peek() != c) fail(pos_ < s_.size() ? cat("expected ", what) : cat("expected ", what, ", found the end"));
  ++pos_;
}

void JsonReader::begin_object() {
  if (first_.size() >= size_t(kMaxDepth)) fail("nested too deeply");
  expect('{', "'{'");
  first_.push_back(true);
}

void JsonReader::begin_array() {
  if (first_.size() >= size_t(kMaxDepth)) fail("nested too deeply");
  expect('[', "'['");
  first_.push_back(true);
}

bool JsonReader::next_key(std::string& key) {
  const char c = peek();
  if (c == '}') {
    ++pos_;
    first_.pop_back();
    return false;
  }
  if (!first_.back()) expect(',', "',' or '}'");
  first_.back() = false;
  if (peek() != '"') fail("expected a string key");
  key.clear();
  string_into(key);
  expect(':', "':'");
  return true;
}

bool JsonReader::next_item() {
  const char c = peek();
  if (c == ']') {
    ++pos_;
    first_.pop_back();
    return false;
  }
  if (!first_.back()) expect(',', "',' or ']'");
  first_.back() = false;
  return true;
}

std::string JsonReader::string(const std::string& what) {
  if (peek() != '"') throw RuntimeError(cat(what, " must be a string"));
  std::string out;
  string_into(out);
  return out;
}

void JsonReader::string_into(std::string& out) {
  ++pos_;  // the opening quote
  for (;;) {
    if (pos_ >= s_.size()) fail("unterminated string");
    const char c = s_[pos_];
    if (c == '"') {
      ++pos_;
      return;
    }
    if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
    if (c != '\\') {
      out += c;
      ++pos_;
      continue;
    }
    if (pos_ + 1 >= s_.size()) fail("unterminated string");
    const char e = s_[pos_ + 1];
    pos_ += 2;
    switch (e) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        auto hex4 = [&]() {
          if (s_.size() - pos_ < 4) fail("truncated \\u escape");
          uint32_t v = 0;
          for (int i = 0; i < 4; ++i) {
            const int d = hex_digit(s_[pos_ + size_t(i)]);
            if (d < 0) fail("bad hex digit in a \\u escape");
            v = v * 16 + uint32_t(d);
          }
          pos_ += 4;
          return v;
        };
        uint32_t cp = hex4();
        if (cp >= 0xDC00 && cp <= 0xDFFF) fail("lone low surrogate in a \\u escape");
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          if (s_.size() - pos_ < 2 || s_[pos_] != '\\' || s_[pos_ + 1] != 'u')
            fail("lone high surrogate in a \\u escape");
          pos_ += 2;
          const uint32_t lo = hex4();
          if (lo < 0xDC00 || lo > 0xDFFF) fail("high surrogate not followed by a low one");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        put_utf8(out, cp);
        break;
      }
      default: pos_ -= 1; fail("invalid escape in a string");
    }
  }
}

std::string_view JsonReader::number_token() {
  const size_t start = pos_;
  auto digit = [&] { return pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9'; };
  if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
  if (pos_ < s_.size() && s_[pos_] == '0') {
    ++pos_;
  } else if (digit()) {
    while (digit()) ++pos_;
  } else {
    fail("invalid number");
  }
  if (pos_ < s_.size() && s_[pos_] == '.') {
    ++pos_;
    if (!digit()) fail("invalid number: no digits after '.'");
    while (digit()) ++pos_;
  }
  if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
    ++pos_;
    if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
    if (!digit()) fail("invalid number: no digits in the exponent");
    while (digit()) ++pos_;
  }
  return s_.substr(start, pos_ - start);
}

uint64_t JsonReader::uint(const std::string& what) {
  const char c = peek();
  if (c != '-' && (c < '0' || c > '9')) throw RuntimeError(cat(what, " must be a non-negative integer"));
  const std::string_view tok = number_token();
  if (tok[0] == '-') throw RuntimeError(cat(what, " must be a non-negative integer, got ", shown(tok)));
  if (tok.find_first_of(".eE") != std::string_view::npos)
    throw RuntimeError(cat(what, " must be an integer, got ", shown(tok)));
  uint64_t v = 0;
  for (char d : tok) {
    if (__builtin_mul_overflow(v, uint64_t(10), &v) || __builtin_add_overflow(v, uint64_t(d - '0'), &v))
      throw RuntimeError(cat(what, " is too large: ", shown(tok)));
  }
  return v;
}

void JsonReader::literal(const char* word) {
  const std::string_view w(word);
  if (s_.substr(pos_, w.size()) != w) fail("unexpected character");
  pos_ += w.size();
}

bool JsonReader::null() {
  if (peek() != 'n') return false;
  literal("null");
  return true;
}

void JsonReader::skip() {
  std::string scratch;
  switch (peek()) {
    case '{':
      begin_object();
      while (next_key(scratch)) skip();
      return;
    case '[':
      begin_array();
      while (next_item()) skip();
      return;
    case '"': string_into(scratch); return;
    case 't': literal("true"); return;
    case 'f': literal("false"); return;
    case 'n': literal("null"); return;
    case 0: fail("expected a value, found the end");
    default: number_token(); return;
  }
}

void JsonReader::end() {
  if (peek() != 0) fail("unexpected data after the header's object");
}

std::string json_quote(std::string_view s) {
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (u < 0x20) {
          out += "\\u00";
          out += hex[u >> 4];
          out += hex[u & 15];
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string quoted_name(std::string_view s, size_t max) {
  if (s.size() <= max) return json_quote(s);
  return json_quote(s.substr(0, max)) + "...";
}

bool valid_utf8(std::string_view s) {
  size_t i = 0;
  const size_t n = s.size();
  while (i < n) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int len;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07;
    else return false;
    if (n - i < size_t(len)) return false;
    for (int k = 1; k < len; ++k) {
      const auto b = static_cast<unsigned char>(s[i + size_t(k)]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += size_t(len);
  }
  return true;
}

}  // namespace gl::io
