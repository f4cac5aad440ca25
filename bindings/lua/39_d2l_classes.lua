-- The classes of d2l's current edition (d2l.ai, chapter 3 on: "object-oriented
-- design"): HyperParameters, ProgressBoard, Module, DataModule, Trainer, and
-- the models and data the book builds on them, as its d2l/torch.py has them.
--   local model = d2l.LinearRegression(0.03)
--   local data = d2l.SyntheticRegressionData(torch.tensor({2, -3.4}), 4.2)
--   local trainer = d2l.Trainer(3)            -- or d2l.Trainer{max_epochs=10, num_gpus=1}
--   trainer:fit(model, data)
-- A learner's own class: local M = d2l.Module:extend('M'); function M:__init(lr)
-- d2l.Module.__init(self); self:save_hyperparameters() ... end. Constructors take
-- their arguments by position or, as Python's keywords, in a trailing table
-- named by the __init's parameters (d2l.Trainer{max_epochs=10}).
local U = torch._util
local P = torch.utils.plot

-- ---- keywords and hyperparameters --------------------------------------------------
-- The parameter names of a Lua function, self left out.
local function param_names(fn)
  local names = {}
  for i = 1, 250 do
    local n = debug.getlocal(fn, i)
    if n == nil then break end
    if not (i == 1 and n == 'self') then names[#names + 1] = n end
  end
  return names
end

-- Python's keyword arguments for a Lua constructor: a trailing table of
-- string keys, every one a parameter of `fn`, is spread into their places.
function U.spread_keywords(fname, fn, ...)
  local n = select('#', ...)
  local last = n > 0 and select(n, ...) or nil
  if not U.is_plain_table(last) or #last > 0 or next(last) == nil then return ... end
  for k in pairs(last) do if type(k) ~= 'string' then return ... end end
  local names, index = param_names(fn), {}
  for i, name in ipairs(names) do index[name] = i end
  local args, count = table.pack(...), n - 1
  args[n] = nil
  for k, v in pairs(last) do
    local i = index[k]
    if not i then error(("TypeError: %s() got an unexpected keyword argument '%s'"):format(fname, k), 0) end
    if i <= n - 1 and args[i] ~= nil then
      error(("TypeError: %s() got multiple values for argument '%s'"):format(fname, k), 0)
    end
    args[i] = v
    count = math.max(count, i)
  end
  return table.unpack(args, 1, count)
end

-- d2l's save_hyperparameters: the calling __init's arguments (after its
-- defaults were applied) become fields of self and of self.hparams.
local function save_hyperparameters(self, ignore)
  local skip = {self = true}
  for _, k in ipairs(ignore or {}) do skip[k] = true end
  local info = debug.getinfo(2, 'u')
  local hparams = {}
  for i = 1, info.nparams do
    local k, v = debug.getlocal(2, i)
    if not skip[k] and k:sub(1, 1) ~= '_' then
      hparams[k] = v
      self[k] = v
    end
  end
  self.hparams = hparams
end

-- A d2l class: made through its __init, keywords spread (U.spread_keywords).
local function d2l_class(name, parent)
  local cls = parent and parent:extend(name)
    or U.class(name, nil, function(c) return {__index = c, __name = 'd2l.' .. name} end)
  rawset(cls, '__module', 'd2l.torch')
  if not parent then
    function cls.new(c, ...)
      local self = setmetatable({}, c.__meta)
      self:__init(U.spread_keywords(c.__name, c.__init, ...))
      return self
    end
    function cls:__init() end
  end
  cls.save_hyperparameters = save_hyperparameters
  d2l[name] = cls
  return cls
end

d2l_class('HyperParameters')

-- ---- ProgressBoard ----------------------------------------------------------------
-- Points drawn by label; every every_n points of a label become their mean.
-- In a notebook the figure is drawn and redrawn in place, as the book's; in
-- a terminal (as d2l.train_ch3's plot here) nothing is drawn while training:
-- the Trainer prints a line an epoch, and board:show() writes the figure
-- (figure-N.png) and prints its curves as bars.
local ProgressBoard = d2l_class('ProgressBoard')
function ProgressBoard:__init(xlabel, ylabel, xlim, ylim, xscale, yscale, ls, colors, fig, axes, figsize, display)
  xscale, yscale = xscale or 'linear', yscale or 'linear'
  ls, colors = ls or {'-', '--', '-.', ':'}, colors or {'C0', 'C1', 'C2', 'C3'}
  figsize = figsize or {3.5, 2.5}
  if display == nil then display = true end
  self:save_hyperparameters()
end

local LINE_FMTS = {'-', 'm--', 'g-.', 'r:'}
-- The figure of the curves so far.
function ProgressBoard:figure()
  self.fig = self.fig or P.figure{figsize = self.figsize}
  local axes = self.axes or self.fig:gca()
  axes:cla()
  for i, l in ipairs(self.labels or {}) do
    local xs, ys = {}, {}
    for j, p in ipairs(self.data[l]) do xs[j], ys[j] = p[1], p[2] end
    if #xs > 0 then axes:plot(xs, ys, LINE_FMTS[(i - 1) % #LINE_FMTS + 1]) end
  end
  d2l.set_axes(axes, self.xlabel, self.ylabel, self.xlim, self.ylim, self.xscale, self.yscale, self.labels)
  return self.fig
end

function ProgressBoard:draw(x, y, label, every_n)
  every_n = every_n or 1
  if U.is_tensor(y) then y = y:item() end
  if U.is_tensor(x) then x = x:item() end
  if not self.raw_points then self.raw_points, self.data, self.labels = {}, {}, {} end
  if not self.raw_points[label] then
    self.raw_points[label], self.data[label] = {}, {}
    self.labels[#self.labels + 1] = label
  end
  local points, line = self.raw_points[label], self.data[label]
  points[#points + 1] = {x, y}
  if #points ~= every_n then return end
  local sx, sy = 0, 0
  for _, p in ipairs(points) do sx, sy = sx + p[1], sy + p[2] end
  line[#line + 1] = {sx / #points, sy / #points}
  self.raw_points[label] = {}
  if not (self.display and P._in_notebook() and torch._have_cairo()) then return end
  d2l._redisplay(self, self:figure())
end

-- The board's figure: displayed in a notebook, elsewhere written to a PNG
-- with the curves printed as bars.
function ProgressBoard:show()
  local fig = self:figure()
  if P._in_notebook() then return display(fig) end
  P._show_in_terminal(fig)
end

-- "epoch 3: train_loss 0.08386, val_loss 0.05105": each curve's last point.
function ProgressBoard:epoch_line(epoch)
  local parts = {}
  for _, l in ipairs(self.labels or {}) do
    local line = self.data[l]
    if #line > 0 then parts[#parts + 1] = ('%s %.4g'):format(l, line[#line][2]) end
  end
  return ('epoch %d: %s'):format(epoch, table.concat(parts, ', '))
end
