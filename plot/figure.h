// A figure to draw: what gpulab's plotting API (bindings/lua/36_plot.lua) has
// collected, in pixels at matplotlib's 100 dpi. The renderer (render_cairo.cpp)
// lays it out and draws it; this folder knows no Lua and no tensors.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace gl::plot {

struct Rgb {
  double r = 0, g = 0, b = 0;
};

// One line of Axes.plot: its points and the style its format string chose.
struct Series {
  std::vector<double> x, y;
  std::string fmt;    // matplotlib's format string ('m--', 'g-.', 'o', '')
  std::string label;  // legend text ('' = not in the legend)
};

// An image of Axes.imshow: h x w pixels of `channels` (1: mapped through the
// colormap from [vmin, vmax], as matplotlib does; 3: RGB in [0, 1]), row-major.
struct Image {
  int h = 0, w = 0, channels = 1;
  std::vector<double> data;
  std::string cmap = "viridis";  // "viridis" (matplotlib's default) or "gray"
  std::optional<double> vmin, vmax;
};

struct Axes {
  std::vector<Series> series;
  std::optional<Image> image;
  std::string title, xlabel, ylabel;
  std::string xscale = "linear", yscale = "linear";  // or "log"
  std::optional<double> xmin, xmax, ymin, ymax;      // set_xlim/set_ylim
  bool grid = false;
  bool axis_visible = true;
  bool legend = false;  // draw the legend of the labelled series
};

struct Figure {
  int width = 350, height = 250;  // pixels (figsize in inches x 100 dpi)
  int nrows = 1, ncols = 1;
  std::vector<Axes> axes;  // row-major, up to nrows * ncols
};

// The figure as an SVG document / PNG file; runtime_error without cairo.
// cairo draws text as glyph outlines, so the SVG also lists every text it
// draws, in drawing order, one per line of its <desc> (searchable, readable
// by screen readers, and what the tests read).
std::string render_svg(const Figure& f);
std::string render_png(const Figure& f);
// An image alone, each pixel a scale x scale square (torch.utils.image).
std::string render_image_png(const Image& im, int scale);
bool have_cairo();

}  // namespace gl::plot
