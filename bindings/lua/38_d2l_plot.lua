-- d2l's plotting helpers (the book's d2l.plot, d2l.Animator, d2l.show_images,
-- d2l.set_figsize), drawn by torch.utils.plot (36_plot.lua). In a notebook each
-- figure is displayed (an Animator updates one display in place); in a terminal
-- it is written to figure-N.png and its lines printed as sparklines.
local U = torch._util
local P = torch.utils.plot

local DEFAULT_FMTS = {'-', 'm--', 'g-.', 'r:'}
local figsize_default = {3.5, 2.5}

function d2l.use_svg_display() end  -- notebooks get SVG (and PNG) already
function d2l.set_figsize(figsize) figsize_default = figsize or {3.5, 2.5} end

-- d2l's set_axes: labels, scales, limits, legend, and the grid on.
function d2l.set_axes(axes, xlabel, ylabel, xlim, ylim, xscale, yscale, legend)
  axes:set_xlabel(xlabel); axes:set_ylabel(ylabel)
  axes:set_xscale(xscale or 'linear'); axes:set_yscale(yscale or 'linear')
  if xlim then axes:set_xlim(xlim) end
  if ylim then axes:set_ylim(ylim) end
  if legend and #legend > 0 then axes:legend(legend) end
  axes:grid()
end

local function is_series_list(v)
  if U.is_tensor(v) then return v:dim() ~= 1 end
  return type(v) == 'table' and getmetatable(v) == nil and (type(v[1]) == 'table' or
    (U.is_tensor(v[1]) and v[1]:dim() >= 1 and v[1]:numel() ~= 1))
end
-- A 2-D tensor is a list of its rows (as Python iterates it).
local function as_list(v)
  if U.is_tensor(v) then
    if v:dim() == 0 then return {v} end
    local rows = {}
    for i = 0, v:size(0) - 1 do rows[i + 1] = v:select(0, i) end
    return rows
  end
  return v
end

local plot_names = {'X!', 'Y', 'xlabel', 'ylabel', 'legend', 'xlim', 'ylim', 'xscale', 'yscale', 'fmts', 'figsize', 'axes'}
-- d2l.plot(X, Y=nil, xlabel, ylabel, legend, xlim, ylim, xscale='linear',
-- yscale='linear', fmts={'-', 'm--', 'g-.', 'r:'}, figsize={3.5, 2.5}, axes=nil)
function d2l.plot(...)
  local a = U.parse('plot', plot_names, {xscale = 'linear', yscale = 'linear'}, ...)
  local X, Y = a.X, a.Y
  if not is_series_list(X) then X = {X} else X = as_list(X) end
  if Y == nil then
    Y, X = X, {}
    for i = 1, #Y do X[i] = false end
  elseif not is_series_list(Y) then
    Y = {Y}
  else
    Y = as_list(Y)
  end
  if #X ~= #Y then  -- X = X * len(Y)
    local rep = {}
    for _ = 1, #Y do for _, x in ipairs(X) do rep[#rep + 1] = x end end
    X = rep
  end
  local fmts = a.fmts or DEFAULT_FMTS
  if type(fmts) == 'string' then fmts = {fmts} end
  -- the formats used first, so that a bad one leaves no figure behind
  for i = 1, math.min(#X, #Y, #fmts) do torch._plot_fmt(fmts[i]) end
  local fig
  local axes = a.axes
  if axes == nil then
    fig = P.figure{figsize = a.figsize or figsize_default}
    axes = fig:gca()
  end
  axes:cla()
  for i = 1, math.min(#X, #Y, #fmts) do  -- zip(X, Y, fmts)
    if X[i] then axes:plot(X[i], Y[i], fmts[i]) else axes:plot(Y[i], fmts[i]) end
  end
  d2l.set_axes(axes, a.xlabel, a.ylabel, a.xlim, a.ylim, a.xscale, a.yscale, a.legend)
  if fig then fig:show() end
end

-- In a notebook: shows fig the first time, then updates that display in place
-- (holder.display_id keeps which): d2l.Animator's and ProgressBoard's figures.
function d2l._redisplay(holder, fig)
  local upd = rawget(_G, 'update_display')
  if holder.display_id ~= nil and type(upd) == 'function' then
    upd(fig, {display_id = holder.display_id})
  else
    holder.display_id = display(fig, {display_id = true})
  end
end

-- ---- Animator ----------------------------------------------------------------------
local Animator = U.class('Animator', nil, function(cls)
  return {__index = cls, __name = 'Animator',
          __tostring = function(self) return '<d2l.Animator of ' .. tostring(self.fig) .. '>' end,
          __mimebundle = function(self) return getmetatable(self.fig).__mimebundle(self.fig) end}
end)
d2l.Animator = Animator
local animator_names = {'xlabel', 'ylabel', 'legend', 'xlim', 'ylim', 'xscale', 'yscale', 'fmts', 'nrows', 'ncols', 'figsize'}
function Animator.new(cls, ...)
  local a = U.parse('Animator', animator_names,
                    {xscale = 'linear', yscale = 'linear', fmts = DEFAULT_FMTS, nrows = 1, ncols = 1, figsize = {3.5, 2.5}}, ...)
  local self = setmetatable({legend = a.legend or {}, fmts = a.fmts, X = nil, Y = nil}, cls.__meta)
  if type(self.fmts) == 'string' then self.fmts = {self.fmts} end
  for _, f in ipairs(self.fmts) do torch._plot_fmt(f) end
  self.fig = P.figure{figsize = a.figsize, nrows = a.nrows, ncols = a.ncols}
  self.axes = self.fig.axes
  self.config_axes = function()
    d2l.set_axes(self.axes[1], a.xlabel, a.ylabel, a.xlim, a.ylim, a.xscale, a.yscale, self.legend)
  end
  return self
end

-- y: a number or a list of numbers, one per line (nil or false for "no point
-- this time", as d2l's None); x: a number, or one per line. A Lua list cannot
-- end in nil ({loss, acc, nil}), so there are as many lines as the legend has
-- entries when y has fewer.
local function count(t)
  local n = 0
  for k in pairs(t) do
    if math.type(k) == 'integer' and k > n then n = k end
  end
  return n
end
local function scalar(v)
  if U.is_tensor(v) then return v:item() end
  return v
end

function Animator:add(x, y)
  if U.is_tensor(y) then y = y:dim() == 0 and {y} or y:detach():cpu():double():tolist() end
  if type(y) ~= 'table' then y = {y} end
  local n = math.max(count(y), #self.legend, self.X and #self.X or 0)
  if U.is_tensor(x) then x = x:dim() == 0 and x:item() or x:detach():cpu():double():tolist() end
  if type(x) ~= 'table' then
    local xs = {}
    for i = 1, n do xs[i] = x end
    x = xs
  end
  self.X, self.Y = self.X or {}, self.Y or {}
  for i = #self.X + 1, n do self.X[i], self.Y[i] = {}, {} end
  for i = 1, n do
    local a, b = scalar(x[i]), scalar(y[i])
    if a and b then
      if type(a) ~= 'number' or type(b) ~= 'number' then
        error(('TypeError: Animator.add(): points must be numbers, got x=%s, y=%s'):format(U.type_name(a), U.type_name(b)), 2)
      end
      table.insert(self.X[i], a)
      table.insert(self.Y[i], b)
    end
  end
  local ax = self.axes[1]
  ax:cla()
  for i = 1, math.min(#self.X, #self.fmts) do ax:plot(self.X[i], self.Y[i], self.fmts[i]) end
  self.config_axes()
  if P._in_notebook() then
    d2l._redisplay(self, self.fig)
  else
    P._show_in_terminal(self.fig, self.shown)
    if not self.shown then
      print('(the Animator rewrites ' .. P._figure_path(self.fig) .. ' on each add; animator:show() prints its lines)')
    end
    self.shown = true
  end
end
function Animator:show()
  if P._in_notebook() then return display(self.fig) end
  P._show_in_terminal(self.fig)
end

-- ---- images ------------------------------------------------------------------------
-- d2l.show_images(imgs, num_rows, num_cols, titles=nil, scale=1.5) -> the axes:
-- imgs a tensor (N, H, W) / (N, H, W, 3) or a list of images, drawn in a grid
-- without axes, each titled titles[i].
function d2l.show_images(...)
  local a = U.parse('show_images', {'imgs!', 'num_rows:int!', 'num_cols:int!', 'titles', 'scale'}, {scale = 1.5}, ...)
  local fig, axes = P.subplots(a.num_rows, a.num_cols, {figsize = {a.num_cols * a.scale, a.num_rows * a.scale}})
  local imgs = a.imgs
  if U.is_tensor(imgs) then
    if imgs:dim() < 3 then
      error(('TypeError: Invalid shape %s for image data'):format(P._shape_tuple(imgs:select(0, 0))), 2)
    end
    imgs = as_list(imgs)
  end
  for i = 1, math.min(#axes, #imgs) do
    axes[i]:imshow(imgs[i])
    axes[i]:set_axis_off()
    if a.titles then axes[i]:set_title(a.titles[i]) end
  end
  fig:show()
  return axes
end

local docs = {
  plot = 'd2l.plot(X, Y=nil, xlabel=nil, ylabel=nil, legend={}, xlim=nil, ylim=nil, xscale=\'linear\',\n'
    .. 'yscale=\'linear\', fmts={\'-\', \'m--\', \'g-.\', \'r:\'}, figsize={3.5, 2.5}, axes=nil): plots the lines\n'
    .. 'Y[i] against X[i] (lists or 1-D tensors, any device); in a notebook it shows the figure, in a\n'
    .. 'terminal it writes figure-N.png and prints each line as a sparkline.',
  show_images = 'd2l.show_images(imgs, num_rows, num_cols, titles=nil, scale=1.5): a grid of images (e.g.\n'
    .. 'X:reshape(18, 28, 28) of Fashion-MNIST) titled titles[i]; returns the axes.',
  set_figsize = 'd2l.set_figsize(figsize={3.5, 2.5}): the size (inches, 100 pixels each) of d2l.plot\'s figures.',
  set_axes = 'd2l.set_axes(axes, xlabel, ylabel, xlim, ylim, xscale, yscale, legend): configures an Axes.',
  use_svg_display = 'd2l.use_svg_display(): nothing to do: notebooks get SVG and PNG.',
}
for name, text in pairs(docs) do torch._set_doc(d2l[name], text) end
U.doc(Animator, 'd2l.Animator{xlabel=, ylabel=, legend=, xlim=, ylim=, xscale=, yscale=, fmts=, nrows=, ncols=,\n'
  .. 'figsize=}: add(x, y) adds a point to each line and redraws (one display updated in place in a\n'
  .. 'notebook; figure-N.png rewritten in a terminal).')
U.doc(P.Figure, 'torch.utils.plot.figure{figsize={w, h}, nrows=1, ncols=1}: a figure; fig.axes[i] (or fig:gca())\n'
  .. 'plot(x, y, fmt, {label=}), set_xlabel, set_ylabel, set_xscale(\'log\'), set_xlim, legend, grid, imshow;\n'
  .. 'fig:savefig(\'f.png\' or \'f.svg\'), fig:show().')
U.doc(P.Image, 'torch.utils.image(t, {scale=1}): a (H, W) or (C, H, W) tensor as a picture (image/png in a\n'
  .. 'notebook); img:save(path), img:show().')
