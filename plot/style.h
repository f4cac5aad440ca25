// matplotlib's format strings ('m--', 'g-.', 'r:', 'o') and colours.
#pragma once
#include <string>

#include "plot/figure.h"

namespace gl::plot {

struct LineStyle {
  bool has_color = false;
  Rgb color;
  std::string linestyle;  // "-", "--", "-.", ":" or "" (none)
  char marker = 0;        // one of ".,ov^<>s*+xDd|_" or 0
};

// Parses fmt as matplotlib's _process_plot_format does; throws
// std::invalid_argument with matplotlib's message for a bad one, e.g.
// "'mq' is not a valid format string (unrecognized character 'q')".
LineStyle parse_fmt(const std::string& fmt);

// matplotlib's default colour cycle (tab10): C0 blue, C1 orange, ...
Rgb cycle_color(int i);
// viridis (or gray) at t in [0, 1].
Rgb colormap(const std::string& name, double t);

}  // namespace gl::plot
