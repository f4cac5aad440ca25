// The Lua half of torch.utils.progress (progress.cpp loads it): tqdm's bar.
// The chunk gets (env) with env.notebook() (a Jupyter kernel shows outputs),
// env.tty() (stderr is a terminal), env.columns() (its width) and env.clock
// (a monotonic clock in seconds), and returns the progress function.
#pragma once

namespace gl::interp {

inline constexpr const char* kProgressLua = R"lua(
local env = ...
local display, update_display = display, update_display
local pyfloat, pytype = torch._pyfloat, torch._type_name
local MININTERVAL = 0.1  -- seconds between two redraws, as tqdm's mininterval

local Progress = {}
Progress.__index = Progress
Progress.__name = 'progress'

-- tqdm's format_interval: 00:05, 01:02:03
local function interval(t)
  t = math.floor(t + 0.5)
  local h, m, s = t // 3600, t // 60 % 60, t % 60
  if h > 0 then return ('%d:%02d:%02d'):format(h, m, s) end
  return ('%02d:%02d'):format(m, s)
end

-- tqdm's format_num: '{:.3g}', unless the plain repr is shorter.
local function num(v)
  if math.type(v) == 'integer' then return tostring(v) end
  local f = ('%.3g'):format(v):gsub('e%+0', 'e+'):gsub('e%-0', 'e-')
  local plain = pyfloat(v)
  return #f < #plain and f or plain
end

local function bar(fraction, width)
  local parts = {' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'}
  local cells = math.max(0, math.min(1, fraction)) * width
  local full = math.floor(cells)
  local s = ('█'):rep(full)
  if full < width then
    s = s .. parts[math.floor((cells - full) * 8) + 1]
    s = s .. (' '):rep(width - full - 1)
  end
  return s
end

-- The line tqdm prints; `timed` false leaves out the times and the rate
-- (the quiet form for logs and transcripts, the same on every run).
function Progress:line(timed, width)
  local elapsed = env.clock() - self.start
  local prefix = self.desc ~= '' and (self.desc .. ': ') or ''
  local postfix = self.postfix ~= '' and (', ' .. self.postfix) or ''
  local rate = (elapsed > 0 and self.n > 0) and self.n / elapsed or nil
  local rate_s = not rate and '?it/s' or (rate >= 1 or rate == 0) and ('%.2fit/s'):format(rate)
                 or ('%.2fs/it'):format(1 / rate)
  if not self.total then
    if not timed then return ('%s%dit%s'):format(prefix, self.n, self.postfix ~= '' and (' [' .. self.postfix .. ']') or '') end
    return ('%s%dit [%s, %s%s]'):format(prefix, self.n, interval(elapsed), rate_s, postfix)
  end
  local fraction = self.total > 0 and self.n / self.total or 1
  local left = ('%s%3.0f%%|'):format(prefix, fraction * 100)
  local right
  if timed then
    local eta = (rate and rate > 0) and interval((self.total - self.n) / rate) or '?'
    right = ('| %d/%d [%s<%s, %s%s]'):format(self.n, self.total, interval(elapsed), eta, rate_s, postfix)
  else
    right = ('| %d/%d%s'):format(self.n, self.total, self.postfix ~= '' and (' [' .. self.postfix .. ']') or '')
  end
  local w = math.max(10, math.min(40, (width or 80) - utf8.len(left) - utf8.len(right) - 1))
  return left .. bar(fraction, w) .. right
end

local function html_escape(s)
  return (s:gsub('&', '&amp;'):gsub('<', '&lt;'):gsub('>', '&gt;'))
end

-- What the notebook shows: the line, and an HTML bar.
local View = {}
View.__mimebundle = function(v)
  if v.cleared then return {['text/plain'] = '', ['text/html'] = ''} end
  local p = v.progress
  local text = p:line(true, 80)
  if not p.total then return {['text/plain'] = text} end
  local html = ('<div class="gpulab-progress" style="font-family: monospace">%s'
    .. '<progress value="%d" max="%d" style="width: 20em; vertical-align: middle"></progress>%s</div>'):format(
    html_escape(p.desc ~= '' and (p.desc .. ': ') or ''), p.n, p.total, html_escape(text:match('|([^|]*)$')))
  return {['text/plain'] = text, ['text/html'] = html}
end

function Progress:refresh(final)
  if self.mode == 'notebook' then
    local view = setmetatable({progress = self, cleared = final and not self.leave}, View)
    if not self.display_id then self.display_id = display(view, {display_id = true})
    else update_display(view, {display_id = self.display_id}) end
  elseif self.mode == 'tty' then
    local cols = env.columns()
    local line = self:line(true, cols)
    if utf8.len(line) > cols - 1 then line = line:sub(1, utf8.offset(line, cols) - 1) end  -- a wrapped line cannot be redrawn
    local pad = math.max(0, (self.drawn or 0) - utf8.len(line))
    io.stderr:write('\r', line, (' '):rep(pad))
    self.drawn = utf8.len(line)
    if final then
      if self.leave then io.stderr:write('\n')
      else io.stderr:write('\r', (' '):rep(self.drawn), '\r') end
    end
    io.stderr:flush()
  elseif final and self.leave then  -- quiet: the final line alone
    io.stderr:write(self:line(false), '\n')
    io.stderr:flush()
  end
  self.last_draw = env.clock()
end

-- Counts n more steps (1 by default), redrawing at most every 0.1 s.
function Progress:update(n)
  if self.closed then return end
  n = n == nil and 1 or n
  if math.type(n) ~= 'integer' then error(('TypeError: update(): n must be an int, not %s'):format(pytype(n)), 0) end
  self.n = self.n + n
  if self.mode ~= 'quiet' and env.clock() - self.last_draw >= MININTERVAL then self:refresh(false) end
end

-- progress:set_postfix{loss=0.25, acc=...}: shown after the rate, keys in
-- alphabetical order (numbers as tqdm writes them, tensors by their value).
function Progress:set_postfix(t)
  if type(t) ~= 'table' then error(('TypeError: set_postfix() takes a table such as {loss=...}, not %s'):format(type(t)), 0) end
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for _, k in ipairs(keys) do
    local v = t[k]
    if torch.is_tensor(v) and v:numel() == 1 then v = v:item() end
    parts[#parts + 1] = k .. '=' .. (type(v) == 'number' and num(v) or tostring(v))
  end
  self.postfix = table.concat(parts, ', ')
  if self.mode ~= 'quiet' and env.clock() - self.last_draw >= MININTERVAL then self:refresh(false) end
end

function Progress:set_description(desc)
  self.desc = desc == nil and '' or tostring(desc)
end

-- Prints text without breaking the bar (tqdm.write).
function Progress:write(text)
  if self.mode == 'tty' and self.drawn then
    io.stderr:write('\r', (' '):rep(self.drawn), '\r')
    io.stderr:flush()
    print(text)
    self:refresh(false)
  else
    print(text)
  end
end

function Progress:close()
  if self.closed then return end
  self.closed = true
  self:refresh(true)
end
Progress.__close = Progress.close
Progress.__tostring = function(self) return self:line(true, 80) end

local function steps(x)
  if math.type(x) == 'integer' then
    local i = 0
    return function() if i < x then i = i + 1; return i end end, x
  end
  if type(x) == 'function' then return x, nil end
  if type(x) == 'table' then
    if type(x.iter) == 'function' then  -- a DataLoader: one epoch, unpacked for the loop's names
      local it
      return function(names) it = it or x:iter(names); return it() end, #x, true
    end
    local i = 0
    return function() i = i + 1; if x[i] ~= nil then return i, x[i] end end, #x
  end
  error(('TypeError: progress(): expected a DataLoader, a list, an iterator function or an int, not %s'):format(
    torch.is_tensor(x) and 'Tensor' or type(x)), 0)
end

local function progress(iterable, opts)
  opts = opts or {}
  if type(opts) ~= 'table' then error(('TypeError: progress(): options must be a table, not %s'):format(type(opts)), 0) end
  for k in pairs(opts) do
    if k ~= 'desc' and k ~= 'total' and k ~= 'leave' then
      error(("TypeError: progress() got an unexpected keyword argument '%s'"):format(tostring(k)), 0)
    end
  end
  if opts.total ~= nil and math.type(opts.total) ~= 'integer' then
    error(('TypeError: progress(): total must be an int, not %s'):format(pytype(opts.total)), 0)
  end
  if opts.leave ~= nil and type(opts.leave) ~= 'boolean' then
    error(('TypeError: progress(): leave must be a boolean, not %s'):format(type(opts.leave)), 0)
  end
  local p = setmetatable({n = 0, desc = '', postfix = '', leave = opts.leave ~= false, last_draw = -math.huge,
                          mode = env.notebook() and 'notebook' or env.tty() and 'tty' or 'quiet'}, Progress)
  if iterable ~= nil then
    p.next, p.total, p.takes_names = steps(iterable)
  end
  if opts.total then p.total = opts.total end
  if opts.desc ~= nil then p:set_description(opts.desc) end
  p.start = env.clock()
  if p.mode ~= 'quiet' then p:refresh(false) end
  return p
end

-- `for batch in progress(loader) do`: the iterator, and the bar as the loop's
-- closing value, so that a break or an error still closes it.
-- tqdm counts an item when the loop asks for the next one (the body is done).
Progress.__call = function(self)
  if self.closed then return nil end
  if not self.next then error('TypeError: this progress bar counts with :update(), it has nothing to iterate', 0) end
  if self.pending then self.pending = false; self:update(1) end
  -- Note [for X, y in loader]: a loader unpacks for as many names as the loop has
  if self.takes_names and self.names == nil then self.names = torch._for_arity() end
  local r = table.pack(self.next(self.names))
  if r[1] == nil then self:close(); return nil end
  self.pending = true
  return table.unpack(r, 1, r.n)
end

return function(iterable, opts)
  local p = progress(iterable, opts)
  return p, nil, nil, p
end
)lua";

}  // namespace gl::interp
