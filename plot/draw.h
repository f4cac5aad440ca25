// Internal to plot/: drawing one Axes into a cairo context (draw_axes.cpp),
// used by render_cairo.cpp for each cell of a figure's grid.
#pragma once
#include <cairo.h>

#include <string>
#include <vector>

#include "plot/figure.h"

namespace gl::plot {

// Sizes in pixels at 100 dpi, from matplotlib's rcParams in points (x 100/72).
constexpr double kPt = 100.0 / 72.0;
constexpr double kFont = 10 * kPt;        // tick labels, axis labels, legend
constexpr double kTitleFont = 12 * kPt;   // axes.titlesize 'large'
constexpr double kLineWidth = 1.5 * kPt;  // lines.linewidth
constexpr double kSpine = 0.8 * kPt;      // axes.linewidth
constexpr double kTickLen = 3.5 * kPt;    // xtick.major.size
constexpr double kPad = 3.5 * kPt;        // xtick.major.pad

struct Canvas {
  cairo_t* cr;
  std::vector<std::string>* texts;  // every text drawn, for the SVG's <desc>
};

struct Rect {
  double x, y, w, h;
};

void set_font(cairo_t* cr, double size);
double text_width(cairo_t* cr, const std::string& s);
// Draws s with its anchor at (x, y): ax/ay in {0, 0.5, 1} pick left/centre/right
// and top/middle/baseline-bottom; rotated by -90 degrees when `vertical`.
void draw_text(Canvas& c, const std::string& s, double x, double y, double ax, double ay, bool vertical = false);

void draw_axes(Canvas& c, const Axes& a, Rect cell);

}  // namespace gl::plot
