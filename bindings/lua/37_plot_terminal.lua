-- Figures where no notebook shows them (the terminal REPL, scripts, ssh): the
-- figure is written to a PNG file and each of its lines printed as a text
-- sparkline, so that something is seen at once.
-- The file is figure-N.png (N: matplotlib's figure number, 1, 2, ... in the
-- session) in the current directory, where a learner looks for what a script
-- wrote, as matplotlib's savefig('x.png') does; GPULAB_FIGURES=DIR puts them
-- in DIR instead (or torch.utils.plot.figure_dir = DIR from Lua). Running the
-- script again rewrites the same files.
local U = torch._util
local P = torch.utils.plot

-- U+2581 .. U+2588, LOWER ONE EIGHTH BLOCK .. FULL BLOCK (escaped: the
-- embedded Lua files are ASCII).
local BARS = {}
for i = 1, 8 do BARS[i] = utf8.char(0x2580 + i) end
local ARROW = utf8.char(0x2192)

-- sparkline(values, width=40, log=false): one bar per value, from the lowest
-- block (the smallest) to the full block (the largest); more values than width are averaged in buckets;
-- NaN/Inf (and, on a log scale, values <= 0) print as a space.
function P.sparkline(values, width, log)
  width = width or 40
  local vals = {}
  for i, v in ipairs(values) do
    if log then v = v > 0 and math.log(v, 10) or 0 / 0 end
    vals[i] = v
  end
  local n = #vals
  if n > width then  -- bucket means
    local out = {}
    for b = 1, width do
      local i0, i1 = math.floor((b - 1) * n / width) + 1, math.floor(b * n / width)
      local s, k = 0, 0
      for i = i0, i1 do
        local v = vals[i]
        if v == v and v ~= math.huge and v ~= -math.huge then s, k = s + v, k + 1 end
      end
      out[b] = k > 0 and s / k or 0 / 0
    end
    vals, n = out, width
  end
  local lo, hi = math.huge, -math.huge
  for _, v in ipairs(vals) do
    if v == v and v ~= math.huge and v ~= -math.huge then lo, hi = math.min(lo, v), math.max(hi, v) end
  end
  local chars = {}
  for i = 1, n do
    local v = vals[i]
    if v ~= v or v == math.huge or v == -math.huge then
      chars[i] = ' '
    elseif hi == lo then
      chars[i] = BARS[4]
    else
      chars[i] = BARS[math.floor((v - lo) / (hi - lo) * 7 + 0.5) + 1]
    end
  end
  return table.concat(chars)
end

function P._figure_path(fig)
  if not fig.path then
    local dir = P.figure_dir or os.getenv('GPULAB_FIGURES')
    local name = ('figure-%d.png'):format(fig.number)
    fig.path = (dir and dir ~= '') and (dir:gsub('/+$', '') .. '/' .. name) or name
  end
  return fig.path
end

local function num(v) return (v == v and v ~= math.huge and v ~= -math.huge) and ('%.4g'):format(v) or tostring(v) end

-- The figure's lines as text: "  label  <sparkline>  first -> last" (an arrow).
function P._text_summary(fig)
  local rows = {}
  for _, ax in ipairs(fig.axes) do
    for i, s in ipairs(ax.series) do
      local label = s.label or (#ax.series > 1 and ('line ' .. i)) or ax.ylabel or 'y'
      if #s.y > 0 then
        rows[#rows + 1] = {label, P.sparkline(s.y, 40, ax.yscale == 'log'), num(s.y[1]) .. ' ' .. ARROW .. ' ' .. num(s.y[#s.y])}
      end
    end
  end
  local w = 0
  for _, r in ipairs(rows) do w = math.max(w, utf8.len(r[1]) or #r[1]) end
  local out = {}
  for i, r in ipairs(rows) do
    out[i] = '  ' .. r[1] .. (' '):rep(w - (utf8.len(r[1]) or #r[1])) .. '  ' .. r[2] .. '  ' .. r[3]
  end
  return table.concat(out, '\n')
end

-- Writes the PNG; `quiet` for the later updates of an Animator.
function P._show_in_terminal(fig, quiet)
  local path = P._figure_path(fig)
  local ok, err = pcall(fig.savefig, fig, path)
  if quiet then return end
  if ok then
    print(('%s saved to %s'):format(tostring(fig), path))
  else  -- still the sparklines: something to see
    print(('%s: could not write %s: %s'):format(tostring(fig), path, tostring(err)))
  end
  local text = P._text_summary(fig)
  if text ~= '' then print(text) end
end

-- fig:show(): a notebook (the kernel's display) shows it; elsewhere the file
-- and the sparklines.
-- display() exists in every session (it prints in a terminal): ask whether a
-- notebook is listening (interpreter/progress.cpp).
function P._in_notebook()
  local f = rawget(torch.utils, '_notebook')
  return f ~= nil and f() and type(rawget(_G, 'display')) == 'function'
end
function P.Figure:show()
  if P._in_notebook() then
    display(self)
    return
  end
  P._show_in_terminal(self)
end
