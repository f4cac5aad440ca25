// Built without cairo (Debian's libcairo2-dev): gpulab runs, and drawing a
// figure says what is missing.
#include <stdexcept>

#include "plot/figure.h"

namespace gl::plot {

namespace {
[[noreturn]] void missing() {
  throw std::runtime_error(
      "plotting needs cairo, and this gpulab was built without it: install libcairo2-dev "
      "(scripts/setup.sh does) and rebuild");
}
}  // namespace

bool have_cairo() { return false; }
std::string render_svg(const Figure&) { missing(); }
std::string render_png(const Figure&) { missing(); }
std::string render_image_png(const Image&, int) { missing(); }

}  // namespace gl::plot
