// Tick positions with nice numbers, and their labels, as matplotlib's
// MaxNLocator/ScalarFormatter and LogLocator/LogFormatterSciNotation choose them.
#pragma once
#include <string>
#include <vector>

namespace gl::plot {

struct Tick {
  double value;
  std::string label;  // "" for a minor tick
};

// Data limits widened by matplotlib's 5% margins (in log space for log axes).
void autoscale(double& lo, double& hi, bool log);
// Major ticks of [lo, hi] at 1, 2, 2.5 or 5 x 10^k steps, about `max_ticks` of them.
std::vector<Tick> linear_ticks(double lo, double hi, int max_ticks);
// Decades 10^k labelled "10⁻²" style, and unlabelled minor ticks 2..9 x 10^k.
std::vector<Tick> log_ticks(double lo, double hi);
// A number as matplotlib labels it: "−" (U+2212) for minus.
std::string tick_label(double v, int decimals);

}  // namespace gl::plot
