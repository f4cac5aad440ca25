-- Plots (torch.utils.plot, d2l.plot, d2l.Animator, d2l.show_images,
-- torch.utils.image): what a notebook is given (through a recording stub of the
-- kernel's display/update_display), what a terminal gets (figure-N.png and
-- sparklines), and the errors for bad input in matplotlib's words.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
local P = torch.utils.plot

-- The error's text without Lua's "file:line: " prefix must end with `want`.
local function raises(fn, want)
  local ok, err = pcall(fn)
  if ok then error('expected an error: ' .. want, 2) end
  err = tostring(err)
  if err:sub(-#want) ~= want then error(('wrong error:\n  want %s\n  got  %s'):format(want, err), 2) end
end

-- The kernel's display/update_display, recorded (the real ones come with the
-- Jupyter kernel): display returns a display id as the contract says.
local shown = {}
local real_notebook = torch.utils._notebook
local function notebook_on()
  shown = {}
  torch.utils._notebook = function() return true end
  display = function(x, opts)
    local mt = getmetatable(x)
    shown[#shown + 1] = {kind = 'display', bundle = mt.__mimebundle(x), id = 'id-' .. (#shown + 1)}
    -- the contract: an id comes back only when one was asked for
    if opts and opts.display_id then return shown[#shown].id end
  end
  update_display = function(x, opts)
    shown[#shown + 1] = {kind = 'update', bundle = getmetatable(x).__mimebundle(x), id = opts.display_id}
  end
end
local function notebook_off() display, update_display, torch.utils._notebook = nil, nil, real_notebook end

local function be32(s, at)
  local a, b, c, d = s:byte(at, at + 3)
  return ((a * 256 + b) * 256 + c) * 256 + d
end
local function png_size(png)
  T.eq(png:sub(1, 8), '\137PNG\r\n\26\n', 'PNG signature')
  T.eq(png:sub(13, 16), 'IHDR', 'PNG header chunk')
  return be32(png, 17), be32(png, 21)
end
local function count(s, what)
  local n, at = 0, 1
  while true do
    local i = s:find(what, at, true)
    if not i then return n end
    n, at = n + 1, i + 1
  end
end

if not torch._have_cairo() then
  print('SKIPPED (loudly): this gpulab was built without cairo; only its error and the sparklines are checked')
  T.test('without cairo, drawing says what is missing', function()
    raises(function() P.figure():render('png') end, 'install libcairo2-dev (scripts/setup.sh does) and rebuild')
    T.eq(P.sparkline({0, 1, 2, 3, 4, 5, 6, 7}), '▁▂▃▄▅▆▇█')
  end)
  T.finish()
  return
end

-- A fresh folder for the terminal's figure files.
local dir = os.tmpname()
os.remove(dir)
os.execute('mkdir -p ' .. dir)
P.figure_dir = dir
local function read(path)
  local f = assert(io.open(path, 'rb'))
  local s = f:read('a')
  f:close()
  return s
end

T.test('d2l.plot in a notebook: one display with SVG, PNG and matplotlib\'s text', function()
  notebook_on()
  local x = torch.arange(0, 3, 0.1)
  d2l.plot(x, {x * x, 2 * x - 3}, 'x', 'f(x)', {'f(x)', 'Tangent line (x=1)'})
  notebook_off()
  T.eq(#shown, 1)
  local b = shown[1].bundle
  T.eq(b['text/plain'], '<Figure size 350x250 with 1 Axes>')
  local svg = b['image/svg+xml']
  T.truthy(svg:find('<svg', 1, true), 'an SVG document')
  T.truthy(svg:find('Tangent line (x=1)\n', 1, true), 'legend text in the SVG')
  T.truthy(svg:find('f(x)\n', 1, true), 'axis label in the SVG')
  -- one path per series, plus its legend handle: C0 solid, 'm--' dashed
  T.eq(count(svg, 'stroke:rgb(12.156863%,46.666667%,70.588235%)'), 2, 'C0 line + handle')
  T.eq(count(svg, 'stroke:rgb(75%,0%,75%)'), 2, "'m--' line + handle")
  local w, h = png_size(b['image/png'])
  T.eq(w, 350); T.eq(h, 250)
end)

T.test('log scale: decade ticks labelled 10⁻¹ ...', function()
  local fig = P.figure()
  local ax = fig:gca()
  ax:plot({1, 2, 3, 4}, {1, 0.1, 0.01, 0.001})
  ax:set_yscale('log')
  local svg = fig:render('svg')
  for _, lab in ipairs({'10⁻³', '10⁻²', '10⁻¹', '10⁰'}) do T.truthy(svg:find(lab .. '\n', 1, true), lab) end
  raises(function() ax:set_xscale('logarithmic') end,
         "ValueError: 'logarithmic' is not a valid value for scale; supported values are 'linear', 'log'")
end)

T.test('tensors on any device, one series per row of a 2-D tensor', function()
  notebook_on()
  local y = torch.tensor({{1, 2, 3}, {3, 2, 1}}, {device = 'cuda:1'})
  d2l.plot(y, {legend = {'up', 'down'}, fmts = {'g-.', 'r:'}})
  notebook_off()
  local svg = shown[1].bundle['image/svg+xml']
  T.eq(count(svg, 'stroke:rgb(0%,50%,0%)'), 2, "'g-.' line + handle")
  T.eq(count(svg, 'stroke:rgb(100%,0%,0%)'), 2, "'r:' line + handle")
  T.truthy(svg:find('down\n', 1, true))
end)

T.test('the terminal: figure-N.png and a sparkline per line', function()
  local out = {}
  local old = print
  print = function(...) for l in (table.concat({...}, '\t') .. '\n'):gmatch('(.-)\n') do out[#out + 1] = l end end
  local ok, err = pcall(d2l.plot, {1, 2, 3, 4, 5, 6, 7, 8}, {{1, 2, 3, 4, 5, 6, 7, 8}, {8, 7, 6, 5, 4, 3, 2, 1}},
                        {legend = {'rising', 'falling'}})
  print = old
  assert(ok, err)
  local path = out[1]:match('saved to (.*)$')
  T.truthy(path and path:find(dir, 1, true) == 1 and path:match('/figure%-%d+%.png$'), 'saved to figure-N.png: ' .. out[1])
  T.truthy(out[1]:find('^<Figure size 350x250 with 1 Axes> saved to '))
  T.eq(out[2], '  rising   ▁▂▃▄▅▆▇█  1 → 8')
  T.eq(out[3], '  falling  █▇▆▅▄▃▂▁  8 → 1')
  local w, h = png_size(read(path))
  T.eq(w, 350); T.eq(h, 250)
end)

T.test('sparklines: eight levels, buckets, flat and missing values, log scale', function()
  T.eq(P.sparkline({0, 1, 2, 3, 4, 5, 6, 7}), '▁▂▃▄▅▆▇█')
  T.eq(P.sparkline({5, 5, 5}), '▄▄▄')
  T.eq(P.sparkline({1, 0 / 0, 2}), '▁ █')
  T.eq(P.sparkline({1, 1, 3, 3}, 2), '▁█')
  T.eq(P.sparkline({1, 10, 100}, 40, true), '▁▅█')
end)

T.test('savefig writes PNG or SVG by extension', function()
  local fig = P.figure{figsize = {2, 1.5}}
  fig:gca():plot({1, 2}, {3, 4}, 'o')
  fig:savefig(dir .. '/a.png')
  local w, h = png_size(read(dir .. '/a.png'))
  T.eq(w, 200); T.eq(h, 150)
  fig:savefig(dir .. '/a.svg')
  T.truthy(read(dir .. '/a.svg'):find('<svg', 1, true))
  raises(function() fig:savefig(dir .. '/a.jpg') end, "ValueError: Format 'jpg' is not supported (supported formats: png, svg)")
end)

T.test('Animator: one display, then update_display with its id', function()
  notebook_on()
  local animator = d2l.Animator{xlabel = 'epoch', xlim = {1, 3}, legend = {'train loss', 'train acc', 'test acc'}}
  for epoch = 1, 3 do
    animator:add(epoch - 0.5, {1 / epoch, 0.5 + epoch / 10})
    animator:add(epoch, {1 / epoch, 0.5 + epoch / 10, 0.4 + epoch / 10})
  end
  notebook_off()
  T.eq(#shown, 6)
  T.eq(shown[1].kind, 'display')
  for i = 2, 6 do
    T.eq(shown[i].kind, 'update')
    T.eq(shown[i].id, shown[1].id, 'the same display id')
  end
  T.eq(#animator.Y[1], 6); T.eq(#animator.Y[3], 3, 'test acc only at whole epochs')
  local svg = shown[6].bundle['image/svg+xml']
  T.truthy(svg:find('test acc\n', 1, true))
  T.eq(count(svg, 'stroke:rgb(0%,50%,0%)'), 2, "third line 'g-.' + handle")
end)

T.test('Animator in a terminal rewrites one file', function()
  local out = {}
  local old = print
  print = function(...) for l in (table.concat({...}, '\t') .. '\n'):gmatch('(.-)\n') do out[#out + 1] = l end end
  local a = d2l.Animator{legend = {'loss'}}
  local ok, err = pcall(function() for i = 1, 3 do a:add(i, 1 / i) end end)
  print = old
  assert(ok, err)
  -- the first add says where, with the one point, and how it goes on; the rest are quiet
  T.eq(#out, 3)
  T.truthy(out[1]:find('saved to', 1, true))
  T.eq(out[2], '  loss  ▄  1 → 1')
  T.truthy(out[3]:find('rewrites', 1, true))
  local w = png_size(read(P._figure_path(a.fig)))
  T.eq(w, 350)
end)

T.test('show_images: a grid of num_rows x num_cols titled images', function()
  notebook_on()
  local imgs = torch.rand(18, 28, 28)
  local labels = {}
  for i = 1, 18 do labels[i] = 'img' .. i end
  local axes = d2l.show_images(imgs, 2, 9, {titles = labels})
  notebook_off()
  T.eq(#axes, 18)
  local b = shown[1].bundle
  T.eq(b['text/plain'], '<Figure size 1350x300 with 18 Axes>')
  local w, h = png_size(b['image/png'])
  T.eq(w, 1350); T.eq(h, 300)
  T.truthy(b['image/svg+xml']:find('img18\n', 1, true))
  raises(function() d2l.show_images(torch.rand(2, 1, 28, 28), 1, 2) end, 'TypeError: Invalid shape (1, 28, 28) for image data')
end)

T.test('torch.utils.image: image/png of a tensor, scaled', function()
  local img = torch.utils.image(torch.rand(1, 28, 28), {scale = 2})
  T.eq(tostring(img), '<Image mode=L size=28x28>')
  local w, h = png_size(getmetatable(img).__mimebundle(img)['image/png'])
  T.eq(w, 56); T.eq(h, 56)
  T.eq(tostring(torch.utils.image(torch.zeros(3, 4, 5, {dtype = torch.uint8}))), '<Image mode=RGB size=5x4>')
  raises(function() torch.utils.image(torch.rand(1, 1, 2, 2)) end, 'ValueError: pic should be 2/3 dimensional. Got 4 dimensions.')
  raises(function() torch.utils.image(torch.rand(5, 2, 2)) end, 'ValueError: pic should not have > 4 channels. Got 5 channels.')
end)

T.test('bad input in matplotlib\'s words', function()
  local ax = P.figure():gca()
  raises(function() ax:plot({1, 2, 3}, {1, 2, 3, 4}) end,
         'ValueError: x and y must have same first dimension, but have shapes (3,) and (4,)')
  raises(function() ax:plot({1, 2}, {1, 2}, 'mq') end,
         "ValueError: 'mq' is not a valid format string (unrecognized character 'q')")
  raises(function() d2l.plot({1, 2}, {3, 4}, {fmts = {'r--:'}}) end,
         "ValueError: 'r--:' is not a valid format string (two linestyle symbols)")
  raises(function() ax:plot(torch.zeros(2, 3, 4)) end, 'ValueError: plot() takes 1-D data: y has shape (2, 3, 4)')
  raises(function() ax:plot({1, 'a'}) end, 'TypeError: plot(): y[2] must be a number, not str')
  raises(function() ax:imshow(torch.zeros(3, 4, 5)) end, 'TypeError: Invalid shape (3, 4, 5) for image data')
  raises(function() d2l.Animator{fmts = {'-', 'z'}} end, "ValueError: 'z' is not a valid format string (unrecognized character 'z')")
  T.eq(#ax.series, 0, 'nothing half-added')
end)

os.execute('rm -rf ' .. dir)
T.finish()
