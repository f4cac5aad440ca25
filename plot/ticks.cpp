// Nice tick numbers (matplotlib.ticker's MaxNLocator with steps 1, 2, 2.5, 5, 10,
// and LogLocator's decades) and their labels.
#include "plot/ticks.h"

#include <cmath>
#include <cstdio>

namespace gl::plot {

void autoscale(double& lo, double& hi, bool log) {
  if (log) { lo = std::log10(lo), hi = std::log10(hi); }
  if (lo == hi) {  // one value: matplotlib widens a flat range by ±0.1 % ... simply by ±1 here
    const double d = lo == 0 ? 1.0 : std::fabs(lo) * 0.05;
    lo -= d, hi += d;
  } else {
    const double m = (hi - lo) * 0.05;
    lo -= m, hi += m;
  }
  if (log) lo = std::pow(10.0, lo), hi = std::pow(10.0, hi);
}

std::string tick_label(double v, int decimals) {
  if (std::fabs(v) < 1e-12) v = 0;  // no "-0.0"
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(v));
  return (v < 0 ? "\u2212" : "") + std::string(buf);
}

std::vector<Tick> linear_ticks(double lo, double hi, int max_ticks) {
  std::vector<Tick> out;
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return out;
  if (max_ticks < 2) max_ticks = 2;
  const double raw = (hi - lo) / max_ticks;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  static const double steps[] = {1, 2, 2.5, 5, 10};
  double step = 10 * mag;
  for (double s : steps) {
    if (s * mag >= raw) {
      step = s * mag;
      break;
    }
  }
  // Decimals enough for the step (2.5 x 10^k needs one more than 10^k).
  int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
  const double mant = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  if (std::fabs(mant - 2.5) < 1e-9) decimals += 1;
  const double first = std::ceil(lo / step - 1e-9) * step;
  for (double v = first; v <= hi + step * 1e-9; v += step) {
    const double r = std::round(v / step) * step;
    out.push_back({r, tick_label(r, decimals)});
  }
  return out;
}

namespace {

std::string superscript(int k) {
  static const char* digits[] = {"\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074",
                                 "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};
  std::string s = k < 0 ? "\u207b" : "";
  const std::string d = std::to_string(std::abs(k));
  for (char c : d) s += digits[c - '0'];
  return s;
}

}  // namespace

std::vector<Tick> log_ticks(double lo, double hi) {
  std::vector<Tick> out;
  if (!(lo > 0) || !(hi > lo) || !std::isfinite(hi)) return out;
  const int k0 = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  const int k1 = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
  // Many decades: label every n-th, as LogLocator thins them.
  const int every = std::max(1, (k1 - k0 + 7) / 8);
  for (int k = k0; k <= k1; ++k) {
    const double d = std::pow(10.0, k);
    if (d >= lo * (1 - 1e-9) && d <= hi * (1 + 1e-9)) out.push_back({d, k % every == 0 ? "10" + superscript(k) : ""});
    if (every == 1)
      for (int m = 2; m <= 9; ++m)
        if (m * d >= lo && m * d <= hi) out.push_back({m * d, ""});
  }
  return out;
}

}  // namespace gl::plot
