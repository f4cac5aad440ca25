-- help() for the plotting API (36_plot.lua .. 38_d2l_plot.lua): each function's
-- signature and an example. Those that write a file are shown, not run.
local U = torch._util
local not_run = 'not run here: it writes a file'
local fig = 'torch.utils.plot.figure()'
local ax = fig .. ':gca()'
local img = 'torch.utils.image(torch.rand(1, 28, 28), {scale=2})'
local new_doc = 'cls:new(...): make an instance (what calling the class does)'

local entries = {
  ['torch.utils.image'] = {'torch.utils.image(t, {scale=1}): a (H, W) or (C, H, W) tensor (C = 1 or 3; floats in\n'
    .. '[0, 1] or uint8) as a picture: image/png in a notebook, img:save(path), img:show()', img, false},
  ['torch.utils.plot.figure'] = {'torch.utils.plot.figure({figsize={3.5, 2.5}, nrows=1, ncols=1}): a figure of\n'
    .. 'figsize inches (100 pixels each) with nrows x ncols Axes, fig.axes[i]; fig:gca() is the first',
    "torch.utils.plot.figure({figsize={3.5, 2.5}})", false},
  ['torch.utils.plot.subplots'] = {'torch.utils.plot.subplots(nrows=1, ncols=1, {figsize={3.5, 2.5}}) -> fig, axes',
    'torch.utils.plot.subplots(1, 2)', false},
  ['torch.utils.plot.sparkline'] = {'torch.utils.plot.sparkline(values, width=40, log=false): the values as a line\n'
    .. 'of block characters, lowest to highest (what a terminal prints for each line of a figure)',
    'torch.utils.plot.sparkline({3, 1, 4, 1, 5, 9, 2, 6})', false},
  ['torch.utils.plot.Axes.plot'] = {"ax:plot(x, y, fmt='', {label=nil}): a line of y against x (lists or 1-D\n"
    .. "tensors, any device; x defaults to 0, 1, ...); fmt as matplotlib's: 'm--', 'g-.', 'r:', 'o'",
    ax .. ":plot({1, 2, 3}, {1, 4, 9}, 'm--', {label='squares'}).fmt", false},
  ['torch.utils.plot.Axes.cla'] = {'ax:cla(): clears the axes (lines, image, labels, scales, limits)', ax .. ':cla()', false},
  ['torch.utils.plot.Axes.grid'] = {'ax:grid(on=true): the grid lines at the major ticks', ax .. ':grid()', false},
  ['torch.utils.plot.Axes.legend'] = {'ax:legend(labels=nil): shows the legend of the labelled lines; labels name\n'
    .. 'the lines in order', ax .. ":legend({'train', 'test'})", false},
  ['torch.utils.plot.Axes.imshow'] = {"ax:imshow(img, {cmap='viridis', vmin=nil, vmax=nil}): a 2-D tensor through the\n"
    .. "colormap ('viridis' or 'gray'), an H x W x 3 tensor as RGB, or a torch.utils.image",
    ax .. ':imshow(torch.rand(28, 28))', false},
  ['torch.utils.plot.Axes.set_axis_off'] = {'ax:set_axis_off(): no frame, ticks or labels (as show_images)',
    ax .. ':set_axis_off()', false},
  ['torch.utils.plot.Axes.set_title'] = {'ax:set_title(s): the title above the axes', ax .. ":set_title('loss')", false},
  ['torch.utils.plot.Axes.set_xlabel'] = {'ax:set_xlabel(s): the x axis label', ax .. ":set_xlabel('epoch')", false},
  ['torch.utils.plot.Axes.set_ylabel'] = {'ax:set_ylabel(s): the y axis label', ax .. ":set_ylabel('loss')", false},
  ['torch.utils.plot.Axes.set_xlim'] = {'ax:set_xlim(lo, hi) or ax:set_xlim({lo, hi}): the x range shown',
    ax .. ':set_xlim(1, 10)', false},
  ['torch.utils.plot.Axes.set_ylim'] = {'ax:set_ylim(lo, hi) or ax:set_ylim({lo, hi}): the y range shown',
    ax .. ':set_ylim(0, 1)', false},
  ['torch.utils.plot.Axes.set_xscale'] = {"ax:set_xscale(s): 'linear' or 'log'", ax .. ":set_xscale('log')", false},
  ['torch.utils.plot.Axes.set_yscale'] = {"ax:set_yscale(s): 'linear' or 'log' (decades labelled 10^k)",
    ax .. ":set_yscale('log')", false},
  ['torch.utils.plot.Axes.new'] = {new_doc, 'torch.utils.plot.Axes:new()', false},
  ['torch.utils.plot.Axes.extend'] = {'Axes:extend(name): a subclass', "torch.utils.plot.Axes:extend('MyAxes')", false},
  ['torch.utils.plot.Figure.gca'] = {'fig:gca(): the figure\'s first Axes', fig .. ':gca()', false},
  ['torch.utils.plot.Figure.render'] = {"fig:render(kind): the figure drawn as 'svg' (a document) or 'png' (bytes)",
    '#' .. fig .. ":render('png') > 0", false},
  ['torch.utils.plot.Figure.savefig'] = {"fig:savefig(fname): writes the figure, PNG or SVG by the name's extension",
    fig .. ":savefig('figure.svg')"},
  ['torch.utils.plot.Figure.show'] = {'fig:show(): a notebook displays it; a terminal writes figure-N.png (in\n'
    .. 'GPULAB_FIGURES, else the current directory) and prints each line as a sparkline', fig .. ':show()'},
  ['torch.utils.plot.Figure.new'] = {new_doc, 'torch.utils.plot.Figure:new()', false},
  ['torch.utils.plot.Figure.extend'] = {'Figure:extend(name): a subclass', "torch.utils.plot.Figure:extend('MyFigure')", false},
  ['torch.utils.plot.Image.png'] = {'img:png(): the image as PNG bytes', '#' .. img .. ':png() > 0', false},
  ['torch.utils.plot.Image.save'] = {'img:save(fp): writes the image as a PNG file', img .. ":save('image.png')"},
  ['torch.utils.plot.Image.show'] = {'img:show(): a notebook displays it; a terminal writes image-N.png', img .. ':show()'},
  ['torch.utils.plot.Image.new'] = {new_doc, 'torch.utils.plot.Image:new(torch.zeros(2, 2))', false},
  ['torch.utils.plot.Image.extend'] = {'Image:extend(name): a subclass', "torch.utils.plot.Image:extend('MyImage')", false},
}

for path, e in torch._util.sorted_pairs(entries) do
  local fn = U.lookup_path(path)
  if type(fn) == 'function' then
    torch._set_doc(fn, e[1])
    U.examples[fn] = e[2]
    if e[3] ~= false then U.examples_not_run[fn] = not_run end
  end
end

-- torch.utils.progress is the interpreter's (interpreter/progress.cpp); its
-- example is shown, not run, since it would draw in the middle of the help text.
local progress = rawget(torch.utils, 'progress')
if type(progress) == 'function' then
  U.examples[progress] = "torch.utils.progress(loader, {desc='epoch 1'})"
  U.examples_not_run[progress] = 'not run: it draws its bar on the terminal'
end
