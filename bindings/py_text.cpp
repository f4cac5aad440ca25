// Python's repr of a float and of a str, for the echo (repr.cpp), the Lua
// half's printer (torch._util.pyfloat) and anything else that prints numbers
// and strings as Python does.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include "bindings/registry.h"

namespace gl::lt {

// Python's repr(float): the shortest digits that read back to the same double,
// positional notation for exponents -4..15, else d.ddde+XX (two digits at least).
std::string py_float_repr(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  const bool negative = sci[0] == '-';
  const size_t epos = sci.find('e');
  std::string digits;
  for (size_t i = negative ? 1 : 0; i < epos; ++i)
    if (sci[i] != '.') digits += sci[i];
  const int exp10 = std::atoi(sci.c_str() + epos + 1);
  std::string out = negative ? "-" : "";
  if (exp10 < -4 || exp10 >= 16) {
    out += digits[0];
    if (digits.size() > 1) out.append(1, '.').append(digits, 1);
    char e[16];
    std::snprintf(e, sizeof e, "e%c%02d", exp10 < 0 ? '-' : '+', std::abs(exp10));
    return out + e;
  }
  if (exp10 < 0) return out.append("0.").append(size_t(-exp10 - 1), '0').append(digits);
  const size_t int_digits = size_t(exp10) + 1;
  if (digits.size() <= int_digits) return out.append(digits).append(int_digits - digits.size(), '0').append(".0");
  return out.append(digits, 0, int_digits).append(1, '.').append(digits, int_digits);
}

// Python's repr(str) for a Lua string (bytes): UTF-8 text kept, control
// characters and invalid bytes escaped, NUL included.
std::string py_str_repr(const char* s, size_t n) {
  const std::string_view v(s, n);
  const char q = (v.find('\'') != v.npos && v.find('"') == v.npos) ? '"' : '\'';
  std::string r(1, q);
  auto hex = [&](unsigned c) {
    char b[8];
    std::snprintf(b, sizeof b, "\\x%02x", c);
    r += b;
  };
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\\') r += "\\\\";
    else if (c == '\n') r += "\\n";
    else if (c == '\t') r += "\\t";
    else if (c == '\r') r += "\\r";
    else if (c == static_cast<unsigned char>(q)) {
      r += '\\';
      r += q;
    } else if (c < 0x20 || c == 0x7f) hex(c);
    else if (c < 0x80) r += char(c);
    else {
      // A well-formed UTF-8 sequence stays as it is, except C1 controls and
      // U+00A0, which Python escapes; any other byte is shown as \xNN.
      const size_t len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
      bool ok = len > 0 && i + len <= n;
      for (size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
      if (ok && len == 2 && c == 0xc2 && static_cast<unsigned char>(s[i + 1]) <= 0xa0) {
        hex(static_cast<unsigned char>(s[i + 1]));
        i += 1;
      } else if (ok) {
        r.append(s + i, len);
        i += len - 1;
      } else {
        hex(c);
      }
    }
  }
  return r + q;
}

}  // namespace gl::lt
