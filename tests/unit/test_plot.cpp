// plot/: nice ticks, matplotlib's format strings, and (with cairo) the SVG
// and PNG a figure becomes: its structure, its size and some of its pixels.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "plot/figure.h"
#include "plot/style.h"
#include "plot/ticks.h"
#ifdef GPULAB_HAVE_CAIRO
#include <cairo.h>
#endif

using namespace gl::plot;

namespace {

std::vector<std::string> labels(const std::vector<Tick>& ts) {
  std::vector<std::string> out;
  for (const auto& t : ts)
    if (!t.label.empty()) out.push_back(t.label);
  return out;
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

std::string fmt_error(const std::string& fmt) {
  try {
    parse_fmt(fmt);
  } catch (const std::invalid_argument& e) { return e.what(); }
  return "";
}

}  // namespace

TEST_CASE("linear ticks are nice numbers labelled as matplotlib") {
  CHECK(labels(linear_ticks(0, 1, 5)) == std::vector<std::string>{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"});
  CHECK(labels(linear_ticks(-0.3, 9.7, 5)) == std::vector<std::string>{"0", "2", "4", "6", "8"});
  CHECK(labels(linear_ticks(-1, 1, 4)) == std::vector<std::string>{"\u22121.0", "\u22120.5", "0.0", "0.5", "1.0"});
  CHECK(labels(linear_ticks(0, 10, 4)) == std::vector<std::string>{"0.0", "2.5", "5.0", "7.5", "10.0"});
  CHECK(linear_ticks(1, 1, 5).empty());
}

TEST_CASE("log ticks are decades with superscript exponents and unlabelled minors") {
  const auto t = log_ticks(0.005, 20);
  CHECK(labels(t) == std::vector<std::string>{"10\u207b\u00b2", "10\u207b\u00b9", "10\u2070", "10\u00b9"});
  size_t minors = 0;
  for (const auto& k : t) minors += k.label.empty();
  CHECK(minors == 5 + 8 + 8 + 8 + 1);  // 5..9e-3, 2..9e-2, 2..9e-1, 2..9, 20
  CHECK(log_ticks(-1, 10).empty());
}

TEST_CASE("format strings parse as matplotlib's, and bad ones say why in its words") {
  auto s = parse_fmt("m--");
  CHECK(s.linestyle == "--");
  CHECK(s.has_color);
  CHECK(s.color.r == doctest::Approx(0.75));
  CHECK(parse_fmt("g-.").linestyle == "-.");
  CHECK(parse_fmt("r:").linestyle == ":");
  CHECK(parse_fmt("").linestyle == "-");
  CHECK(parse_fmt("o").linestyle.empty());  // markers only
  CHECK(parse_fmt("o").marker == 'o');
  CHECK(parse_fmt("C1-").color.r == doctest::Approx(1.0));
  CHECK(fmt_error("mq") == "'mq' is not a valid format string (unrecognized character 'q')");
  CHECK(fmt_error("--:") == "'--:' is not a valid format string (two linestyle symbols)");
  CHECK(fmt_error("rg") == "'rg' is not a valid format string (two color symbols)");
  CHECK(fmt_error("os") == "'os' is not a valid format string (two marker symbols)");
}

#ifdef GPULAB_HAVE_CAIRO
namespace {

Figure two_lines(bool legend, const std::string& yscale = "linear") {
  Figure f;
  Axes a;
  a.xlabel = "epoch";
  a.ylabel = "loss";
  a.yscale = yscale;
  a.grid = true;
  a.legend = legend;
  a.series.push_back({{1, 2, 3, 4}, {1, 0.1, 0.05, 0.01}, "-", "train loss"});
  a.series.push_back({{1, 2, 3, 4}, {0.9, 0.5, 0.2, 0.1}, "m--", "test loss"});
  f.axes.push_back(a);
  return f;
}

uint32_t be32(const std::string& s, size_t at) {
  return (uint32_t(uint8_t(s[at])) << 24) | (uint32_t(uint8_t(s[at + 1])) << 16) | (uint32_t(uint8_t(s[at + 2])) << 8) |
         uint32_t(uint8_t(s[at + 3]));
}

struct Reader {
  const std::string* s;
  size_t at = 0;
};
cairo_status_t read_png(void* closure, unsigned char* data, unsigned int length) {
  auto* r = static_cast<Reader*>(closure);
  if (r->at + length > r->s->size()) return CAIRO_STATUS_READ_ERROR;
  std::copy_n(r->s->data() + r->at, length, data);
  r->at += length;
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

TEST_CASE("the SVG holds the axes, one path per line, the legend and the labels") {
  const std::string bare = render_svg(two_lines(false));
  CHECK(bare.rfind("<?xml", 0) == 0);
  CHECK(bare.find("width=\"350px\" height=\"250px\"") != std::string::npos);
  // C0 (#1f77b4) solid and 'm' dashed: one stroked path each without a legend.
  CHECK(count(bare, "stroke:rgb(12.156863%,46.666667%,70.588235%)") == 1);
  CHECK(count(bare, "stroke:rgb(75%,0%,75%)") == 1);
  CHECK(count(bare, "stroke-dasharray") == 1);
  const std::string with = render_svg(two_lines(true));
  CHECK(count(with, "stroke:rgb(75%,0%,75%)") == 2);  // the line and its legend handle
  CHECK(with.find("<desc>") != std::string::npos);
  CHECK(with.find("train loss\n") != std::string::npos);
  CHECK(with.find("test loss\n") != std::string::npos);
  CHECK(with.find("epoch\n") != std::string::npos);
  CHECK(with.find("loss\n") != std::string::npos);
  CHECK(bare.find("train loss\n") == std::string::npos);
  const std::string log = render_svg(two_lines(false, "log"));
  CHECK(log.find("10\u207b\u00b2\n") != std::string::npos);
  CHECK(log.find("10\u2070\n") != std::string::npos);
}

TEST_CASE("the PNG is a valid image of the figure's size, white, with the lines in their colours") {
  const std::string png = render_png(two_lines(true));
  REQUIRE(png.size() > 100);
  CHECK(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  CHECK(png.compare(12, 4, "IHDR") == 0);
  CHECK(be32(png, 16) == 350);
  CHECK(be32(png, 20) == 250);
  Reader r{&png};
  cairo_surface_t* s = cairo_image_surface_create_from_png_stream(read_png, &r);
  REQUIRE(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
  const unsigned char* px = cairo_image_surface_get_data(s);
  const int stride = cairo_image_surface_get_stride(s);
  auto at = [&](int x, int y) { return *reinterpret_cast<const uint32_t*>(px + y * stride + x * 4) & 0xffffff; };
  CHECK(at(1, 1) == 0xffffff);  // the figure's white corner
  int blue = 0, magenta = 0;
  for (int y = 0; y < 250; ++y)
    for (int x = 0; x < 350; ++x) {
      blue += at(x, y) == 0x1f77b4;
      magenta += at(x, y) == 0xbf00bf;
    }
  CHECK(blue > 50);
  CHECK(magenta > 20);
  cairo_surface_destroy(s);
}

TEST_CASE("an image alone: each pixel a scale x scale square, grey from [vmin, vmax]") {
  Image im;
  im.h = 2, im.w = 3, im.channels = 1, im.cmap = "gray", im.vmin = 0.0, im.vmax = 1.0;
  im.data = {0, 0.5, 1, 1, 0.5, 0};
  const std::string png = render_image_png(im, 4);
  CHECK(be32(png, 16) == 12);
  CHECK(be32(png, 20) == 8);
  Reader r{&png};
  cairo_surface_t* s = cairo_image_surface_create_from_png_stream(read_png, &r);
  const unsigned char* px = cairo_image_surface_get_data(s);
  const int stride = cairo_image_surface_get_stride(s);
  auto at = [&](int x, int y) { return *reinterpret_cast<const uint32_t*>(px + y * stride + x * 4) & 0xffffff; };
  CHECK(at(0, 0) == 0x000000);
  CHECK(at(3, 3) == 0x000000);
  CHECK(at(4, 0) == 0x808080);
  CHECK(at(11, 0) == 0xffffff);
  CHECK(at(0, 7) == 0xffffff);
  cairo_surface_destroy(s);
  im.data.pop_back();
  CHECK_THROWS_AS(render_image_png(im, 1), std::invalid_argument);
}
#else
TEST_CASE("without cairo, drawing says what is missing") {
  CHECK_THROWS_WITH(render_png(Figure{}), doctest::Contains("libcairo2-dev"));
}
#endif
