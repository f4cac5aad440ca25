// The renderers, in gpulab_plot_cairo.so (render_cairo.cpp and draw_*.cpp),
// opened at the first figure drawn: cairo brings 14 libraries (X11, xcb,
// fontconfig, freetype, pixman, png...) that every start paid for
// (Note [Libraries on first use]).
#include <dlfcn.h>

#include <mutex>
#include <stdexcept>

#include "plot/figure.h"
#include "tensor/runtime/dl_library.h"

namespace gl::plot {

namespace {

struct Renderers {
  void (*svg)(const Figure&, std::string*) = nullptr;
  void (*png)(const Figure&, std::string*) = nullptr;
  void (*image_png)(const Image&, int, std::string*) = nullptr;
  std::string error;
};

const Renderers& renderers() {
  static Renderers r;
  static std::once_flag once;
  std::call_once(once, [] {
    void* h = open_module("gpulab_plot_cairo.so", &r.error);
    if (!h) return;
    r.svg = reinterpret_cast<decltype(r.svg)>(dlsym(h, "gpulab_render_svg"));
    r.png = reinterpret_cast<decltype(r.png)>(dlsym(h, "gpulab_render_png"));
    r.image_png = reinterpret_cast<decltype(r.image_png)>(dlsym(h, "gpulab_render_image_png"));
    if (!r.svg || !r.png || !r.image_png) r.error = "gpulab_plot_cairo.so lacks its entry points";
  });
  if (!r.error.empty()) throw std::runtime_error("plotting needs cairo, which gpulab could not load: " + r.error);
  return r;
}

}  // namespace

bool have_cairo() { return true; }  // built with it; a missing module is an error at the first figure
std::string render_svg(const Figure& f) {
  std::string out;
  renderers().svg(f, &out);
  return out;
}
std::string render_png(const Figure& f) {
  std::string out;
  renderers().png(f, &out);
  return out;
}
std::string render_image_png(const Image& im, int scale) {
  std::string out;
  renderers().image_png(im, scale, &out);
  return out;
}

}  // namespace gl::plot
