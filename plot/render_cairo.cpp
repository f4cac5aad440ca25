// A Figure to SVG and PNG through cairo's SVG and image surfaces: the figure's
// white background, then each Axes in its cell of the nrows x ncols grid.
#include <cairo-svg.h>
#include <cairo.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "plot/draw.h"
#include "plot/figure.h"
#include "plot/style.h"

namespace gl::plot {

namespace {

cairo_status_t append(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

// Owners, so that a bad image thrown from inside the drawing leaks nothing.
struct SurfaceFree {
  void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
struct ContextFree {
  void operator()(cairo_t* c) const { cairo_destroy(c); }
};
using Surface = std::unique_ptr<cairo_surface_t, SurfaceFree>;
using Context = std::unique_ptr<cairo_t, ContextFree>;

void check(cairo_status_t st, const char* what) {
  if (st != CAIRO_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + ": " + cairo_status_to_string(st));
}

void draw_figure(cairo_t* cr, const Figure& f, std::vector<std::string>* texts) {
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  Canvas c{cr, texts};
  const int nr = std::max(1, f.nrows), nc = std::max(1, f.ncols);
  const double cw = static_cast<double>(f.width) / nc, ch = static_cast<double>(f.height) / nr;
  for (size_t i = 0; i < f.axes.size() && i < static_cast<size_t>(nr * nc); ++i) {
    const int r = static_cast<int>(i) / nc, col = static_cast<int>(i) % nc;
    cairo_save(cr);
    draw_axes(c, f.axes[i], Rect{col * cw, r * ch, cw, ch});
    cairo_restore(cr);
  }
}

std::string xml_escape(const std::string& s) {
  std::string o;
  for (char ch : s) {
    switch (ch) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      default: o += ch;
    }
  }
  return o;
}

void check_size(const Figure& f) {
  if (f.width < 1 || f.height < 1 || f.width > 20000 || f.height > 20000 || static_cast<long>(f.nrows) * f.ncols > 1024)
    throw std::invalid_argument("a figure is 1 to 20000 pixels a side with at most 1024 Axes, got " +
                                std::to_string(f.width) + "x" + std::to_string(f.height) + " with " +
                                std::to_string(f.nrows) + " x " + std::to_string(f.ncols));
}

}  // namespace

std::string render_svg(const Figure& f) {
  check_size(f);
  std::string out;
  std::vector<std::string> texts;
  {
    Surface s(cairo_svg_surface_create_for_stream(append, &out, f.width, f.height));
    cairo_svg_surface_set_document_unit(s.get(), CAIRO_SVG_UNIT_PX);
    Context cr(cairo_create(s.get()));
    draw_figure(cr.get(), f, &texts);
    check(cairo_status(cr.get()), "cairo (SVG)");
    cr.reset();
    cairo_surface_finish(s.get());
    check(cairo_surface_status(s.get()), "cairo (SVG)");
  }
  // The texts after the opening <svg ...> tag (see render_svg in figure.h).
  const size_t open = out.find("<svg");
  const size_t end = open == std::string::npos ? open : out.find('>', open);
  if (end != std::string::npos) {
    std::string desc = "\n<title>Figure</title>\n<desc>";
    for (const auto& t : texts) desc += xml_escape(t) + "\n";
    desc += "</desc>";
    out.insert(end + 1, desc);
  }
  return out;
}

std::string render_png(const Figure& f) {
  check_size(f);
  Surface s(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, f.width, f.height));
  Context cr(cairo_create(s.get()));
  draw_figure(cr.get(), f, nullptr);
  check(cairo_status(cr.get()), "cairo (PNG)");
  cr.reset();
  std::string out;
  check(cairo_surface_write_to_png_stream(s.get(), append, &out), "cairo (PNG)");
  return out;
}

cairo_surface_t* image_surface(const Image& im);  // draw_image.cpp

std::string render_image_png(const Image& im, int scale) {
  if (scale < 1 || static_cast<long>(im.w) * scale > 20000 || static_cast<long>(im.h) * scale > 20000)
    throw std::invalid_argument("image scale must be a positive integer keeping the image under 20000 pixels a side");
  Surface src(image_surface(im));
  Surface s(cairo_image_surface_create(CAIRO_FORMAT_RGB24, im.w * scale, im.h * scale));
  Context cr(cairo_create(s.get()));
  cairo_scale(cr.get(), scale, scale);
  cairo_set_source_surface(cr.get(), src.get(), 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr.get()), CAIRO_FILTER_NEAREST);
  cairo_paint(cr.get());
  check(cairo_status(cr.get()), "cairo (PNG)");
  cr.reset();
  std::string out;
  check(cairo_surface_write_to_png_stream(s.get(), append, &out), "cairo (PNG)");
  return out;
}

}  // namespace gl::plot

// The module's entry points (plot/render_module.cpp opens it). The module is
// built with hidden visibility, so the names above bind inside it; results
// come back through a pointer, as a C-linkage function returns no std::string.
extern "C" {
__attribute__((visibility("default"))) void gpulab_render_svg(const gl::plot::Figure& f, std::string* out) {
  *out = gl::plot::render_svg(f);
}
__attribute__((visibility("default"))) void gpulab_render_png(const gl::plot::Figure& f, std::string* out) {
  *out = gl::plot::render_png(f);
}
__attribute__((visibility("default"))) void gpulab_render_image_png(const gl::plot::Image& im, int scale,
                                                                    std::string* out) {
  *out = gl::plot::render_image_png(im, scale);
}
}
