// The drawing half of gpulab's plots (bindings/lua/36_plot.lua builds the
// figure as a Lua table; plot/ lays it out and draws it with cairo):
//   torch._plot_render(spec, 'svg'|'png') -> the document as a string
//   torch._plot_fmt(fmt)                  -> checks a matplotlib format string
//   torch._image_png(image, scale)        -> an image alone as a PNG
#include <cmath>
#include <optional>
#include <stdexcept>

#include "bindings/luaT.h"
#include "bindings/registry.h"
#include "plot/figure.h"
#include "plot/style.h"
#include "tensor/core/error.h"

namespace gl::lt {

namespace {

std::string field_string(lua_State* L, int t, const char* k, const char* dflt = "") {
  lua_getfield(L, t, k);
  std::string s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : dflt;
  lua_pop(L, 1);
  return s;
}

std::optional<double> field_number(lua_State* L, int t, const char* k) {
  lua_getfield(L, t, k);
  std::optional<double> v;
  if (lua_type(L, -1) == LUA_TNUMBER) v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  return v;
}

// An int field, clamped before the cast (a double out of int's range is UB).
int field_int(lua_State* L, int t, const char* k, int dflt) {
  const std::optional<double> v = field_number(L, t, k);
  if (!v || std::isnan(*v)) return dflt;
  return static_cast<int>(std::fmax(-1e9, std::fmin(1e9, *v)));
}

bool field_bool(lua_State* L, int t, const char* k, bool dflt) {
  lua_getfield(L, t, k);
  const bool v = lua_isnil(L, -1) ? dflt : lua_toboolean(L, -1);
  lua_pop(L, 1);
  return v;
}

// A list of numbers (36_plot.lua has already turned tensors into lists).
std::vector<double> field_numbers(lua_State* L, int t, const char* k) {
  std::vector<double> out;
  lua_getfield(L, t, k);
  if (lua_istable(L, -1)) {
    const lua_Integer n = luaL_len(L, -1);
    out.reserve(static_cast<size_t>(n));
    for (lua_Integer i = 1; i <= n; ++i) {
      lua_rawgeti(L, -1, i);
      out.push_back(lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : NAN);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  return out;
}

// Calls fn(index of the i-th element) for each table in the list t[k].
template <class F> void each(lua_State* L, int t, const char* k, F fn) {
  lua_getfield(L, t, k);
  if (lua_istable(L, -1)) {
    const lua_Integer n = luaL_len(L, -1);
    for (lua_Integer i = 1; i <= n; ++i) {
      lua_rawgeti(L, -1, i);
      if (lua_istable(L, -1)) fn(lua_gettop(L));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
}

plot::Image read_image(lua_State* L, int t) {
  plot::Image im;
  im.h = field_int(L, t, "h", 0);
  im.w = field_int(L, t, "w", 0);
  im.channels = field_int(L, t, "channels", 1);
  im.data = field_numbers(L, t, "data");
  im.cmap = field_string(L, t, "cmap", "viridis");
  im.vmin = field_number(L, t, "vmin");
  im.vmax = field_number(L, t, "vmax");
  return im;
}

void read_limits(lua_State* L, int t, const char* k, std::optional<double>& lo, std::optional<double>& hi) {
  lua_getfield(L, t, k);
  if (lua_istable(L, -1)) {
    lua_rawgeti(L, -1, 1);
    if (lua_type(L, -1) == LUA_TNUMBER) lo = lua_tonumber(L, -1);
    lua_rawgeti(L, -2, 2);
    if (lua_type(L, -1) == LUA_TNUMBER) hi = lua_tonumber(L, -1);
    lua_pop(L, 2);
  }
  lua_pop(L, 1);
}

plot::Figure read_figure(lua_State* L, int t) {
  plot::Figure f;
  f.width = field_int(L, t, "width", 350);
  f.height = field_int(L, t, "height", 250);
  f.nrows = field_int(L, t, "nrows", 1);
  f.ncols = field_int(L, t, "ncols", 1);
  each(L, t, "axes", [&](int a) {
    plot::Axes ax;
    ax.title = field_string(L, a, "title");
    ax.xlabel = field_string(L, a, "xlabel");
    ax.ylabel = field_string(L, a, "ylabel");
    ax.xscale = field_string(L, a, "xscale", "linear");
    ax.yscale = field_string(L, a, "yscale", "linear");
    read_limits(L, a, "xlim", ax.xmin, ax.xmax);
    read_limits(L, a, "ylim", ax.ymin, ax.ymax);
    ax.grid = field_bool(L, a, "grid", false);
    ax.axis_visible = field_bool(L, a, "axis_visible", true);
    ax.legend = field_bool(L, a, "legend", false);
    each(L, a, "series", [&](int s) {
      ax.series.push_back(
          {field_numbers(L, s, "x"), field_numbers(L, s, "y"), field_string(L, s, "fmt"), field_string(L, s, "label")});
    });
    lua_getfield(L, a, "image");
    if (lua_istable(L, -1)) ax.image = read_image(L, lua_gettop(L));
    lua_pop(L, 1);
    f.axes.push_back(std::move(ax));
  });
  return f;
}

void push_string(lua_State* L, const std::string& s) { lua_pushlstring(L, s.data(), s.size()); }

int plot_render(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkstring(L, 2);
  const std::string kind = lua_tostring(L, 2);
  const plot::Figure f = read_figure(L, 1);
  try {
    if (kind == "svg") push_string(L, plot::render_svg(f));
    else if (kind == "png") push_string(L, plot::render_png(f));
    else throw ValueError("Format '" + kind + "' is not supported (supported formats: png, svg)");
  } catch (const std::invalid_argument& e) { throw ValueError(e.what()); }
  return 1;
}

int plot_fmt(lua_State* L) {
  luaL_checkstring(L, 1);
  const std::string fmt = lua_tostring(L, 1);
  try {
    plot::parse_fmt(fmt);
  } catch (const std::invalid_argument& e) { throw ValueError(e.what()); }
  return 0;
}

int image_png(lua_State* L) {
  // Lua's own argument errors first: they jump over C++ frames.
  luaL_checktype(L, 1, LUA_TTABLE);
  const lua_Integer s = luaL_optinteger(L, 2, 1);
  const int scale = s < 1 ? 0 : s > 20000 ? 20001 : static_cast<int>(s);
  const plot::Image im = read_image(L, 1);
  try {
    push_string(L, plot::render_image_png(im, scale));
  } catch (const std::invalid_argument& e) { throw ValueError(e.what()); }
  return 1;
}

int have_cairo(lua_State* L) {
  lua_pushboolean(L, plot::have_cairo());
  return 1;
}

const Reg kPlotFunctions[] = {
    {"_plot_render", plot_render, "internal: torch._plot_render(figure, 'svg'|'png') draws a figure (36_plot.lua)"},
    {"_plot_fmt", plot_fmt, "internal: torch._plot_fmt(fmt) raises ValueError for a bad matplotlib format string"},
    {"_image_png", image_png, "internal: torch._image_png(image, scale) draws an image alone as a PNG"},
    {"_have_cairo", have_cairo, "internal: whether this gpulab was built with cairo (plots)"},
    {nullptr, nullptr, nullptr}};

}  // namespace

void open_plot(lua_State* L) { set_functions(L, kPlotFunctions); }

}  // namespace gl::lt
