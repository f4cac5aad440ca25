// One Axes: limits, ticks, grid, lines, markers, legend and labels, laid out
// in its cell as matplotlib's tight layout would (margins fit the labels).
#include <algorithm>
#include <cmath>
#include <limits>

#include "plot/draw.h"
#include "plot/style.h"
#include "plot/ticks.h"

namespace gl::plot {

cairo_surface_t* image_surface(const Image& im);  // draw_image.cpp

namespace {

struct Scale {
  double lo, hi;
  bool log;
  double px0, px1;  // pixel positions of lo and hi
  double operator()(double v) const {
    const double t = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) : (v - lo) / (hi - lo);
    return px0 + t * (px1 - px0);
  }
};

bool usable(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }

// Limits: set_xlim's when given, else the data's with 5% margins.
void limits(const Axes& a, bool for_x, double& lo, double& hi) {
  const bool log = (for_x ? a.xscale : a.yscale) == "log";
  lo = INFINITY, hi = -INFINITY;
  for (const auto& s : a.series)
    for (double v : for_x ? s.x : s.y)
      if (usable(v, log)) lo = std::fmin(lo, v), hi = std::fmax(hi, v);
  if (!std::isfinite(lo)) lo = log ? 1 : 0, hi = log ? 10 : 1;
  autoscale(lo, hi, log);
  if (log) {  // at least two labelled decades
    int labelled = 0;
    for (const auto& t : log_ticks(lo, hi)) labelled += !t.label.empty();
    if (labelled < 2) lo = std::pow(10.0, std::floor(std::log10(lo))), hi = std::pow(10.0, std::ceil(std::log10(hi)));
  }
  const auto& mn = for_x ? a.xmin : a.ymin;
  const auto& mx = for_x ? a.xmax : a.ymax;
  if (mn) lo = *mn;
  if (mx) hi = *mx;
  if (lo == hi) hi = lo + 1;
}

std::vector<Tick> ticks(double lo, double hi, bool log, double length_px, double spacing_px) {
  if (log) return log_ticks(std::fmin(lo, hi), std::fmax(lo, hi));
  return linear_ticks(std::fmin(lo, hi), std::fmax(lo, hi), std::clamp(static_cast<int>(length_px / spacing_px), 2, 9));
}

void set_dash(cairo_t* cr, const std::string& ls, double lw) {
  // matplotlib's dash patterns, in line widths (lines.dashed_pattern, ...).
  static const double dashed[] = {3.7, 1.6}, dashdot[] = {6.4, 1.6, 1, 1.6}, dotted[] = {1, 1.65};
  const double* p = nullptr;
  int n = 0;
  if (ls == "--") p = dashed, n = 2;
  if (ls == "-.") p = dashdot, n = 4;
  if (ls == ":") p = dotted, n = 2;
  double d[4];
  for (int i = 0; i < n; ++i) d[i] = p[i] * lw;
  cairo_set_dash(cr, d, n, 0);
}

void marker_path(cairo_t* cr, char m, double x, double y) {
  const double r = (m == '.' || m == ',') ? 1.5 * kPt : 3 * kPt;
  cairo_new_sub_path(cr);
  switch (m) {
    case 's': cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r); break;
    case '^':
    case 'v': {
      const double d = m == '^' ? -1 : 1;
      cairo_move_to(cr, x, y + d * r), cairo_line_to(cr, x - r, y - d * r), cairo_line_to(cr, x + r, y - d * r);
      cairo_close_path(cr);
      break;
    }
    case 'D':
    case 'd':
      cairo_move_to(cr, x, y - r), cairo_line_to(cr, x + r, y), cairo_line_to(cr, x, y + r),
          cairo_line_to(cr, x - r, y);
      cairo_close_path(cr);
      break;
    case 'x':
      cairo_move_to(cr, x - r, y - r), cairo_line_to(cr, x + r, y + r);
      cairo_move_to(cr, x + r, y - r), cairo_line_to(cr, x - r, y + r);
      break;
    case '+':
      cairo_move_to(cr, x - r, y), cairo_line_to(cr, x + r, y);
      cairo_move_to(cr, x, y - r), cairo_line_to(cr, x, y + r);
      break;
    default: cairo_arc(cr, x, y, r, 0, 2 * M_PI);
  }
}

// A series' line (broken at unusable points), then its markers: one path each.
void draw_series(cairo_t* cr, const Series& s, const LineStyle& st, Rgb color, const Scale& sx, const Scale& sy) {
  cairo_set_source_rgb(cr, color.r, color.g, color.b);
  const size_t n = std::min(s.x.size(), s.y.size());
  if (!st.linestyle.empty()) {
    bool pen = false;
    for (size_t i = 0; i < n; ++i) {
      if (!usable(s.x[i], sx.log) || !usable(s.y[i], sy.log)) {
        pen = false;
        continue;
      }
      if (pen) cairo_line_to(cr, sx(s.x[i]), sy(s.y[i]));
      else cairo_move_to(cr, sx(s.x[i]), sy(s.y[i]));
      pen = true;
    }
    cairo_set_line_width(cr, kLineWidth);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    set_dash(cr, st.linestyle, kLineWidth);
    cairo_stroke(cr);
    cairo_set_dash(cr, nullptr, 0, 0);
  }
  if (st.marker) {
    for (size_t i = 0; i < n; ++i)
      if (usable(s.x[i], sx.log) && usable(s.y[i], sy.log)) marker_path(cr, st.marker, sx(s.x[i]), sy(s.y[i]));
    if (st.marker == 'x' || st.marker == '+') {
      cairo_set_line_width(cr, kPt);
      cairo_stroke(cr);
    } else {
      cairo_fill(cr);
    }
  }
}

void draw_legend(Canvas& c, const Axes& a, const std::vector<LineStyle>& styles, const std::vector<Rgb>& colors,
                 Rect box, const Scale& sx, const Scale& sy) {
  cairo_t* cr = c.cr;
  std::vector<size_t> items;
  for (size_t i = 0; i < a.series.size(); ++i)
    if (!a.series[i].label.empty()) items.push_back(i);
  if (items.empty()) return;
  set_font(cr, kFont);
  double tw = 0;
  for (size_t i : items) tw = std::fmax(tw, text_width(cr, a.series[i].label));
  const double pad = 0.4 * kFont, handle = 2.0 * kFont, gap = 0.8 * kFont, row = 1.4 * kFont;
  const double w = pad * 2 + handle + gap + tw, h = pad * 2 + row * items.size() - 0.4 * kFont;
  const double m = 0.5 * kFont;
  // loc='best': the corner covering the fewest points (upper right first).
  const double xs[] = {box.x + box.w - m - w, box.x + m, box.x + m, box.x + box.w - m - w};
  const double ys[] = {box.y + m, box.y + m, box.y + box.h - m - h, box.y + box.h - m - h};
  int best = 0;
  size_t fewest = std::numeric_limits<size_t>::max();
  for (int k = 0; k < 4; ++k) {
    size_t inside = 0;
    for (const auto& s : a.series)
      for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
        if (!usable(s.x[i], sx.log) || !usable(s.y[i], sy.log)) continue;
        const double px = sx(s.x[i]), py = sy(s.y[i]);
        inside += px >= xs[k] && px <= xs[k] + w && py >= ys[k] && py <= ys[k] + h;
      }
    if (inside < fewest) fewest = inside, best = k;
  }
  const double x0 = xs[best], y0 = ys[best], r = 0.2 * kFont;
  cairo_new_sub_path(cr);
  cairo_arc(cr, x0 + w - r, y0 + r, r, -M_PI / 2, 0);
  cairo_arc(cr, x0 + w - r, y0 + h - r, r, 0, M_PI / 2);
  cairo_arc(cr, x0 + r, y0 + h - r, r, M_PI / 2, M_PI);
  cairo_arc(cr, x0 + r, y0 + r, r, M_PI, 3 * M_PI / 2);
  cairo_close_path(cr);
  cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
  cairo_fill_preserve(cr);
  cairo_set_source_rgba(cr, 0.8, 0.8, 0.8, 0.8);
  cairo_set_line_width(cr, kSpine);
  cairo_stroke(cr);
  for (size_t k = 0; k < items.size(); ++k) {
    const size_t i = items[k];
    const double cy = y0 + pad + row * k + 0.5 * kFont;
    Series sample{{0, 1}, {0, 0}, "", ""};
    Scale hx{0, 1, false, x0 + pad, x0 + pad + handle}, hy{-1, 1, false, cy + 1, cy - 1};
    LineStyle st = styles[i];
    const char mk = st.marker;
    st.marker = 0;
    draw_series(cr, sample, st, colors[i], hx, hy);
    if (mk) {
      Series one{{0.5}, {0}, "", ""};
      LineStyle only;
      only.marker = mk;
      draw_series(cr, one, only, colors[i], hx, hy);
    }
    draw_text(c, a.series[i].label, x0 + pad + handle + gap, cy, 0, 0.5);
  }
}

void draw_image(cairo_t* cr, const Image& im, Rect plot) {
  cairo_surface_t* src = image_surface(im);
  const double s = std::fmin(plot.w / im.w, plot.h / im.h);
  cairo_save(cr);
  cairo_translate(cr, plot.x + (plot.w - s * im.w) / 2, plot.y + (plot.h - s * im.h) / 2);
  cairo_scale(cr, s, s);
  cairo_set_source_surface(cr, src, 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
  cairo_rectangle(cr, 0, 0, im.w, im.h);
  cairo_fill(cr);
  cairo_restore(cr);
  cairo_surface_destroy(src);
}

}  // namespace

void draw_axes(Canvas& c, const Axes& a, Rect cell) {
  cairo_t* cr = c.cr;
  const double edge = 0.5 * kFont;
  double top = cell.y + edge, bottom = cell.y + cell.h - edge;
  double left = cell.x + edge, right = cell.x + cell.w - edge;
  if (!a.title.empty()) top += kTitleFont * 1.2 + 0.3 * kFont;
  if (!a.axis_visible) {
    if (a.image) draw_image(cr, *a.image, Rect{left, top, right - left, bottom - top});
    set_font(cr, kTitleFont);
    draw_text(c, a.title, (left + right) / 2, top - 0.3 * kFont, 0.5, 1);
    return;
  }
  const bool xlog = a.xscale == "log", ylog = a.yscale == "log";
  double x0, x1, y0, y1;
  limits(a, true, x0, x1);
  limits(a, false, y0, y1);
  // Vertical space is known first (text heights), so the y ticks, then the
  // left margin their labels need, then the x ticks.
  bottom -= kTickLen + kPad + kFont;
  if (!a.xlabel.empty()) bottom -= kFont * 1.3 + 0.3 * kFont;
  set_font(cr, kFont);
  // As matplotlib's get_tick_space: a y tick per 2 label heights, an x tick per 3
  // (or per label width, when the labels are wider).
  const auto yt = a.image ? std::vector<Tick>{} : ticks(y0, y1, ylog, bottom - top, 2 * kFont);
  double yw = 0;
  for (const auto& t : yt) yw = std::fmax(yw, text_width(cr, t.label));
  left += yw + kPad + kTickLen;
  if (!a.ylabel.empty()) left += kFont * 1.3;
  right -= 0.5 * kFont;
  if (right - left < 10 || bottom - top < 10) return;  // no room: draw nothing rather than garbage
  const Rect plot{left, top, right - left, bottom - top};
  double xw = 0;
  for (const auto& t : ticks(x0, x1, xlog, plot.w, 6 * kFont)) xw = std::fmax(xw, text_width(cr, t.label));
  const auto xt = a.image ? std::vector<Tick>{} : ticks(x0, x1, xlog, plot.w, std::fmax(3 * kFont, xw + kFont));
  const Scale sx{x0, x1, xlog, plot.x, plot.x + plot.w}, sy{y0, y1, ylog, plot.y + plot.h, plot.y};

  if (a.image) draw_image(cr, *a.image, plot);
  // Grid (behind the lines), light grey as matplotlib's grid.color #b0b0b0.
  if (a.grid) {
    cairo_set_source_rgb(cr, 0xb0 / 255.0, 0xb0 / 255.0, 0xb0 / 255.0);
    cairo_set_line_width(cr, kSpine);
    for (const auto& t : xt)
      if (!t.label.empty()) cairo_move_to(cr, std::round(sx(t.value)) + 0.5, plot.y), cairo_rel_line_to(cr, 0, plot.h);
    for (const auto& t : yt)
      if (!t.label.empty()) cairo_move_to(cr, plot.x, std::round(sy(t.value)) + 0.5), cairo_rel_line_to(cr, plot.w, 0);
    cairo_stroke(cr);
  }
  // The series, clipped to the plot area.
  std::vector<LineStyle> styles;
  std::vector<Rgb> colors;
  int cycle = 0;
  for (const auto& s : a.series) {
    styles.push_back(parse_fmt(s.fmt));
    colors.push_back(styles.back().has_color ? styles.back().color : cycle_color(cycle++));
  }
  cairo_save(cr);
  cairo_rectangle(cr, plot.x, plot.y, plot.w, plot.h);
  cairo_clip(cr);
  for (size_t i = 0; i < a.series.size(); ++i) draw_series(cr, a.series[i], styles[i], colors[i], sx, sy);
  cairo_restore(cr);
  // Spines and ticks.
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_set_line_width(cr, kSpine);
  cairo_rectangle(cr, plot.x, plot.y, plot.w, plot.h);
  cairo_stroke(cr);
  for (const auto& t : xt) {
    const double len = t.label.empty() ? kTickLen * 0.57 : kTickLen;  // minor ticks 2 pt
    cairo_move_to(cr, std::round(sx(t.value)) + 0.5, plot.y + plot.h), cairo_rel_line_to(cr, 0, len);
  }
  for (const auto& t : yt) {
    const double len = t.label.empty() ? kTickLen * 0.57 : kTickLen;
    cairo_move_to(cr, plot.x, std::round(sy(t.value)) + 0.5), cairo_rel_line_to(cr, -len, 0);
  }
  cairo_stroke(cr);
  set_font(cr, kFont);
  for (const auto& t : xt) draw_text(c, t.label, sx(t.value), plot.y + plot.h + kTickLen + kPad, 0.5, 0);
  for (const auto& t : yt) draw_text(c, t.label, plot.x - kTickLen - kPad, sy(t.value), 1, 0.5);
  draw_text(c, a.xlabel, plot.x + plot.w / 2, cell.y + cell.h - edge, 0.5, 1);
  draw_text(c, a.ylabel, cell.x + edge + kFont, plot.y + plot.h / 2, 0.5, 1, true);
  if (a.legend) draw_legend(c, a, styles, colors, plot, sx, sy);
  set_font(cr, kTitleFont);
  draw_text(c, a.title, plot.x + plot.w / 2, plot.y - 0.3 * kFont, 0.5, 1);
}

}  // namespace gl::plot
