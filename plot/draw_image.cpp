// Text helpers and images (imshow) for draw_axes.cpp and render_image_png.
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "plot/draw.h"
#include "plot/style.h"

namespace gl::plot {

void set_font(cairo_t* cr, double size) {
  cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, size);
}

double text_width(cairo_t* cr, const std::string& s) {
  cairo_text_extents_t e;
  cairo_text_extents(cr, s.c_str(), &e);
  return e.x_advance;
}

void draw_text(Canvas& c, const std::string& s, double x, double y, double ax, double ay, bool vertical) {
  if (s.empty()) return;
  if (c.texts) c.texts->push_back(s);
  cairo_t* cr = c.cr;
  cairo_font_extents_t fe;
  cairo_font_extents(cr, &fe);
  const double w = text_width(cr, s);
  // Anchored on the cap height (DejaVu Sans: 0.73 em, 0.79 of its ascent), not
  // the descenders, so that labels sit centred as matplotlib's do.
  const double cap = 0.786 * fe.ascent;
  cairo_save(cr);
  cairo_translate(cr, x, y);
  if (vertical) cairo_rotate(cr, -M_PI / 2);
  cairo_move_to(cr, -ax * w, cap * (1 - ay));
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_show_text(cr, s.c_str());
  cairo_restore(cr);
}

// The image's pixels as a cairo surface: one channel through the colormap
// from [vmin, vmax] (the data's own range by default, as imshow), three as RGB.
cairo_surface_t* image_surface(const Image& im) {
  if (im.h < 1 || im.w < 1 || im.h > 20000 || im.w > 20000 ||
      (im.channels != 1 && im.channels != 3 && im.channels != 4) ||
      im.data.size() != static_cast<size_t>(im.h) * im.w * im.channels)
    throw std::invalid_argument(
        "an image needs h x w x channels values (1 to 20000 pixels a side, 1, 3 or 4 channels)");
  double lo = INFINITY, hi = -INFINITY;
  if (im.channels == 1) {
    for (double v : im.data)
      if (std::isfinite(v)) lo = std::fmin(lo, v), hi = std::fmax(hi, v);
  }
  if (im.vmin) lo = *im.vmin;
  if (im.vmax) hi = *im.vmax;
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
  cairo_surface_t* s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, im.w, im.h);
  if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(s);
    throw std::runtime_error("cairo could not make a " + std::to_string(im.w) + "x" + std::to_string(im.h) + " image");
  }
  cairo_surface_flush(s);
  unsigned char* px = cairo_image_surface_get_data(s);
  const int stride = cairo_image_surface_get_stride(s);
  auto byte = [](double v) {
    v = std::isfinite(v) ? std::fmin(1.0, std::fmax(0.0, v)) : 0.0;
    return static_cast<uint32_t>(std::lround(v * 255));
  };
  for (int y = 0; y < im.h; ++y) {
    auto* row = reinterpret_cast<uint32_t*>(px + static_cast<size_t>(y) * stride);
    for (int x = 0; x < im.w; ++x) {
      const double* p = &im.data[(static_cast<size_t>(y) * im.w + x) * im.channels];
      Rgb c;
      if (im.channels == 1) {
        c = colormap(im.cmap, hi > lo ? (p[0] - lo) / (hi - lo) : 0.0);
      } else {
        c = {p[0], p[1], p[2]};
      }
      row[x] = (byte(c.r) << 16) | (byte(c.g) << 8) | byte(c.b);
    }
  }
  cairo_surface_mark_dirty(s);
  return s;
}

}  // namespace gl::plot
