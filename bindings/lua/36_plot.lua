-- torch.utils.plot: small figures drawn the way matplotlib draws them, for the
-- course's curves (d2l.plot, d2l.Animator, d2l.show_images in 37_d2l_plot.lua).
--   local fig = torch.utils.plot.figure{figsize = {3.5, 2.5}}
--   local ax = fig:gca()
--   ax:plot({1, 2, 3}, {1, 4, 9}, 'm--', {label = 'squares'}); ax:legend(); ax:grid()
--   fig:savefig('squares.png')      -- or .svg
--   fig:show()                      -- a notebook shows it; a terminal writes figure-N.png
-- The drawing is C++ (plot/, with cairo; torch._plot_render); this file holds
-- the data (Lua lists or 1-D tensors on any device, copied to the host) and the
-- checks, worded as matplotlib words them.
local U = torch._util
torch.utils = torch.utils or {}
local P = {}
torch.utils.plot = P

local function value_error(msg, level) error('ValueError: ' .. msg, (level or 1) + 1) end

-- A tensor's shape as Python prints a tuple: (3,), (2, 3).
local function shape_tuple(t)
  local parts = {}
  for i = 0, t:dim() - 1 do parts[#parts + 1] = tostring(t:size(i)) end
  if #parts == 1 then return '(' .. parts[1] .. ',)' end
  return '(' .. table.concat(parts, ', ') .. ')'
end
P._shape_tuple = shape_tuple

-- Numbers of a series: a Lua list (numbers, or one-element tensors such as a
-- loss) or a 1-D tensor, copied to the host.
function P._numbers(v, what, fname)
  if U.is_tensor(v) then
    if v:dim() ~= 1 then
      value_error(('%s() takes 1-D data: %s has shape %s'):format(fname, what, shape_tuple(v)) ..
        (v:dim() == 2 and ' (d2l.plot takes a 2-D tensor\'s rows as series)' or ''), 3)
    end
    return v:detach():cpu():double():tolist()
  end
  if type(v) ~= 'table' or getmetatable(v) ~= nil then
    U.type_error(fname, what, 'a list of numbers or a 1-D tensor', v)
  end
  local out = {}
  for i = 1, #v do
    local e = v[i]
    if U.is_tensor(e) then
      if e:numel() ~= 1 then
        value_error(('%s() takes 1-D data: %s[%d] is a tensor of shape %s'):format(fname, what, i, shape_tuple(e)), 3)
      end
      e = e:item()
    end
    if type(e) ~= 'number' then
      error(('TypeError: %s(): %s[%d] must be a number, not %s'):format(fname, what, i, U.type_name(e)), 3)
    end
    out[i] = e
  end
  return out
end

-- ---- Axes ------------------------------------------------------------------------
local Axes = U.class('Axes', nil, function(cls)
  return {__index = cls, __name = 'Axes', __tostring = function(self) return '<Axes: >' end}
end)
P.Axes = Axes
function Axes.new(cls, fig) return setmetatable({figure = fig, series = {}, xscale = 'linear', yscale = 'linear'}, cls.__meta) end

-- ax:plot(y), ax:plot(y, fmt), ax:plot(x, y), ax:plot(x, y, fmt), each with {label=}.
function Axes:plot(a, b, c, d)
  local x, y, fmt, opts
  if b == nil or type(b) == 'string' then
    y, fmt, opts = a, b, c
  elseif type(b) == 'table' and not U.is_tensor(b) and getmetatable(b) == nil and b[1] == nil and next(b) ~= nil then
    y, opts = a, b  -- plot(y, {label=...})
  else
    x, y, fmt, opts = a, b, c, d
  end
  if type(fmt) == 'table' then fmt, opts = nil, fmt end
  fmt = fmt or ''
  if type(fmt) ~= 'string' then U.type_error('plot', 'fmt', 'str', fmt) end
  torch._plot_fmt(fmt)
  local ys = P._numbers(y, 'y', 'plot')
  local xs
  if x ~= nil then
    xs = P._numbers(x, 'x', 'plot')
    if #xs ~= #ys then
      value_error(('x and y must have same first dimension, but have shapes (%d,) and (%d,)'):format(#xs, #ys), 2)
    end
  else
    xs = {}
    for i = 1, #ys do xs[i] = i - 1 end
  end
  local label = opts and opts.label
  if label ~= nil then label = tostring(label) end
  self.series[#self.series + 1] = {x = xs, y = ys, fmt = fmt, label = label}
  return self.series[#self.series]
end

local function scale(fname, s)
  if s ~= 'linear' and s ~= 'log' then
    value_error(("%s is not a valid value for scale; supported values are 'linear', 'log'"):format(U.repr(s)), 3)
  end
  return s
end
local function lim(fname, lo, hi)
  if type(lo) == 'table' then lo, hi = lo[1], lo[2] end
  for _, v in ipairs({lo or 0, hi or 0}) do
    if type(v) ~= 'number' or v ~= v or v == math.huge or v == -math.huge then
      value_error(('Axis limits cannot be NaN or Inf (%s)'):format(fname), 3)
    end
  end
  return {lo, hi}
end
function Axes:set_xscale(s) self.xscale = scale('set_xscale', s) end
function Axes:set_yscale(s) self.yscale = scale('set_yscale', s) end
function Axes:set_xlim(lo, hi) self.xlim = lim('set_xlim', lo, hi) end
function Axes:set_ylim(lo, hi) self.ylim = lim('set_ylim', lo, hi) end
function Axes:set_xlabel(s) self.xlabel = s and tostring(s) end
function Axes:set_ylabel(s) self.ylabel = s and tostring(s) end
function Axes:set_title(s) self.title = s and tostring(s) end
function Axes:grid(on) self.grid_on = on ~= false end
function Axes:set_axis_off() self.axis_off = true end
-- ax:legend() shows the labelled lines; ax:legend({'a', 'b'}) labels the lines in order.
function Axes:legend(labels)
  if labels ~= nil then
    if type(labels) ~= 'table' then U.type_error('legend', 'labels', 'a list of str', labels) end
    for i, s in ipairs(self.series) do s.label = labels[i] ~= nil and tostring(labels[i]) or nil end
  end
  self.legend_on = true
end
function Axes:cla()
  self.series, self.image, self.title, self.xlabel, self.ylabel = {}, nil, nil, nil, nil
  self.xscale, self.yscale, self.xlim, self.ylim, self.grid_on, self.legend_on = 'linear', 'linear', nil, nil, nil, nil
end

-- ax:imshow(img): a 2-D tensor through the colormap (viridis, or {cmap='gray'}),
-- an H x W x 3 tensor as RGB in [0, 1] (uint8: 0..255), or a torch.utils.image.
function Axes:imshow(img, opts)
  opts = opts or {}
  if U.class_of(img) == P.Image then self.image = img:_spec(); return end
  if not U.is_tensor(img) then U.type_error('imshow', 'X', 'a tensor or a torch.utils.image', img) end
  local d = img:dim()
  if not (d == 2 or (d == 3 and (img:size(2) == 3 or img:size(2) == 4))) then
    error(('TypeError: Invalid shape %s for image data'):format(shape_tuple(img)), 2)
  end
  local cmap = opts.cmap or 'viridis'
  if cmap ~= 'viridis' and cmap ~= 'gray' and cmap ~= 'grey' then
    value_error(("%s is not a valid value for cmap; supported values are 'gray', 'grey', 'viridis'"):format(U.repr(cmap)), 2)
  end
  local t = img:detach():cpu():double()
  if d == 3 and img.dtype == torch.uint8 then t = t / 255 end
  self.image = {h = img:size(0), w = img:size(1), channels = d == 2 and 1 or img:size(2),
                data = t:reshape(-1):tolist(), cmap = cmap, vmin = opts.vmin, vmax = opts.vmax}
end

function Axes:_spec()
  local series = {}
  for i, s in ipairs(self.series) do series[i] = {x = s.x, y = s.y, fmt = s.fmt, label = s.label or ''} end
  return {series = series, image = self.image, title = self.title, xlabel = self.xlabel, ylabel = self.ylabel,
          xscale = self.xscale, yscale = self.yscale, xlim = self.xlim, ylim = self.ylim,
          grid = self.grid_on, legend = self.legend_on, axis_visible = not self.axis_off}
end

-- ---- Figure ----------------------------------------------------------------------
local figures = 0  -- figure numbers as matplotlib's: 1, 2, ... in a session
local Figure = U.class('Figure', nil, function(cls)
  return {
    __index = cls, __name = 'Figure',
    -- matplotlib's repr, in pixels at 100 dpi.
    __tostring = function(self)
      return ('<Figure size %dx%d with %d Axes>'):format(self.width, self.height, #self.axes)
    end,
    -- What a notebook shows (the kernel base64-encodes the PNG).
    __mimebundle = function(self)
      return {['text/plain'] = tostring(self), ['image/svg+xml'] = self:render('svg'), ['image/png'] = self:render('png')}
    end,
  }
end)
P.Figure = Figure

local function figsize(fs, fname)
  fs = fs or {3.5, 2.5}
  if type(fs) ~= 'table' or type(fs[1]) ~= 'number' or type(fs[2]) ~= 'number' or not (fs[1] > 0 and fs[2] > 0) then
    error(('ValueError: %s: figsize must be two positive numbers (inches), got %s'):format(fname, U.repr(fs)), 0)
  end
  return fs
end

-- figure{figsize={w, h}, nrows=1, ncols=1}: w x h inches at 100 dpi, with
-- nrows x ncols Axes (fig.axes[1..n], row by row).
function Figure.new(cls, opts)
  opts = opts or {}
  local fs = figsize(opts.figsize, 'figure')
  local nrows, ncols = opts.nrows or 1, opts.ncols or 1
  if math.type(nrows) ~= 'integer' or math.type(ncols) ~= 'integer' or nrows < 1 or ncols < 1 then
    value_error(('Number of rows and columns must be positive integers, not %s and %s'):format(U.repr(nrows), U.repr(ncols)), 2)
  end
  if nrows * ncols > 1024 then value_error(('%d x %d Axes are more than a figure can show (1024)'):format(nrows, ncols), 2) end
  local width, height = math.floor(fs[1] * 100 + 0.5), math.floor(fs[2] * 100 + 0.5)
  if width > 20000 or height > 20000 then  -- matplotlib's words, for the limit of plot/render_cairo.cpp
    error(('ValueError: Image size of %dx%d pixels is too large. It must be less than 20000 in each direction.'):format(
      width, height), 0)
  end
  figures = figures + 1
  local self = setmetatable({number = figures, width = width, height = height,
                             nrows = nrows, ncols = ncols, axes = {}}, cls.__meta)
  for i = 1, nrows * ncols do self.axes[i] = Axes(self) end
  return self
end
P.figure = function(opts) return Figure(opts) end
-- subplots(nrows, ncols, {figsize=}) -> fig, axes (a list, row by row)
function P.subplots(nrows, ncols, opts)
  opts = opts or {}
  local fig = Figure{figsize = opts.figsize, nrows = nrows or 1, ncols = ncols or 1}
  return fig, fig.axes
end
function Figure:gca() return self.axes[1] end

function Figure:render(kind)
  local spec = {width = self.width, height = self.height, nrows = self.nrows, ncols = self.ncols, axes = {}}
  for i, ax in ipairs(self.axes) do spec.axes[i] = ax:_spec() end
  return torch._plot_render(spec, kind)
end

local function write_file(path, bytes)
  local f, err = io.open(path, 'wb')
  if not f then error('OSError: ' .. tostring(err), 3) end
  f:write(bytes)
  f:close()
end

-- savefig(path): PNG or SVG by the file's extension, as matplotlib.
function Figure:savefig(path)
  if type(path) ~= 'string' then U.type_error('savefig', 'fname', 'str', path) end
  local ext = path:match('%.([^./]+)$')
  ext = ext and ext:lower() or 'png'
  if ext ~= 'png' and ext ~= 'svg' then
    value_error(("Format '%s' is not supported (supported formats: png, svg)"):format(ext), 2)
  end
  write_file(ext == 'png' and path:match('%.[^./]+$') == nil and path .. '.png' or path, self:render(ext))
end
