// matplotlib's format strings and colours (matplotlib.axes._base._process_plot_format).
#include "plot/style.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace gl::plot {

namespace {

Rgb hex(unsigned v) { return {((v >> 16) & 255) / 255.0, ((v >> 8) & 255) / 255.0, (v & 255) / 255.0}; }

// The one-letter colours ('b', 'g', ...): matplotlib's BASE_COLORS.
bool base_color(char c, Rgb& out) {
  switch (c) {
    case 'b': out = {0, 0, 1}; return true;
    case 'g': out = {0, 0.5, 0}; return true;
    case 'r': out = {1, 0, 0}; return true;
    case 'c': out = {0, 0.75, 0.75}; return true;
    case 'm': out = {0.75, 0, 0.75}; return true;
    case 'y': out = {0.75, 0.75, 0}; return true;
    case 'k': out = {0, 0, 0}; return true;
    case 'w': out = {1, 1, 1}; return true;
    default: return false;
  }
}

const char kMarkers[] = ".,ov^<>12348sp*hH+xDd|_PX";

std::string py_repr(const std::string& s) { return "'" + s + "'"; }

[[noreturn]] void bad(const std::string& fmt, const std::string& why) {
  throw std::invalid_argument(py_repr(fmt) + " is not a valid format string (" + why + ")");
}

}  // namespace

Rgb cycle_color(int i) {
  static const unsigned tab10[] = {0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd,
                                   0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf};
  return hex(tab10[((i % 10) + 10) % 10]);
}

LineStyle parse_fmt(const std::string& fmt) {
  LineStyle st;
  // A whole colour: '#1f77b4'.
  if (fmt.size() == 7 && fmt[0] == '#' && std::strspn(fmt.c_str() + 1, "0123456789abcdefABCDEF") == 6) {
    st.has_color = true;
    st.color = hex(static_cast<unsigned>(std::strtoul(fmt.c_str() + 1, nullptr, 16)));
    st.linestyle = "-";
    return st;
  }
  bool has_ls = false;
  for (size_t i = 0; i < fmt.size();) {
    const char c = fmt[i];
    const std::string two = fmt.substr(i, 2);
    Rgb col;
    if (two == "--" || two == "-.") {
      if (has_ls) bad(fmt, "two linestyle symbols");
      st.linestyle = two, has_ls = true, i += 2;
    } else if (c == '-' || c == ':') {
      if (has_ls) bad(fmt, "two linestyle symbols");
      st.linestyle = std::string(1, c), has_ls = true, i += 1;
    } else if (c != 0 && std::strchr(kMarkers, c)) {
      if (st.marker) bad(fmt, "two marker symbols");
      st.marker = c, i += 1;
    } else if (base_color(c, col)) {
      if (st.has_color) bad(fmt, "two color symbols");
      st.has_color = true, st.color = col, i += 1;
    } else if (c == 'C' && i + 1 < fmt.size() && fmt[i + 1] >= '0' && fmt[i + 1] <= '9') {
      if (st.has_color) bad(fmt, "two color symbols");
      st.has_color = true, st.color = cycle_color(fmt[i + 1] - '0'), i += 2;
    } else {
      bad(fmt, "unrecognized character " + py_repr(std::string(1, c)));
    }
  }
  if (!has_ls && !st.marker) st.linestyle = "-";  // rcParams['lines.linestyle']
  return st;
}

Rgb colormap(const std::string& name, double t) {
  t = std::isfinite(t) ? std::fmin(1.0, std::fmax(0.0, t)) : 0.0;
  if (name == "gray" || name == "grey") return {t, t, t};
  // viridis at t = 0, 1/8, ..., 1 (matplotlib's _viridis_data), linearly between.
  static const unsigned v[] = {0x440154, 0x472d7b, 0x3b528b, 0x2c728e, 0x21918c,
                               0x28ae80, 0x5ec962, 0xaadc32, 0xfde725};
  const double p = t * 8;
  const int i = std::min(7, static_cast<int>(p));
  const double f = p - i;
  const Rgb a = hex(v[i]), b = hex(v[i + 1]);
  return {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
}

}  // namespace gl::plot
