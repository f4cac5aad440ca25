-- torchvision.transforms and torchvision.datasets.FashionMNIST, and the d2l helpers.
-- The Resize values are torchvision 0.29's on the same tensors (T.Resize on a
-- (1, 5, 7) uint8 and a float image; torch and torchvision are not needed to run this).
-- The dataset tests read Debian's dataset-fashion-mnist (scripts/setup.sh installs it).
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
local TV = torchvision.transforms
local exe = arg[-1]
for i = -1, -10, -1 do if arg[i] then exe = arg[i] end end
local function sh(cmd)
  local p = io.popen(cmd .. ' 2>&1')
  local out = p:read('a')
  p:close()
  return out
end

-- ---- transforms --------------------------------------------------------------
T.test('transforms print as torchvision prints them', function()
  T.eq(tostring(TV.ToTensor()), 'ToTensor()')
  T.eq(tostring(TV.Resize(64)), 'Resize(size=64, interpolation=bilinear, max_size=None, antialias=True)')
  T.eq(tostring(TV.Resize({32, 20}, {antialias = false})),
       'Resize(size=[32, 20], interpolation=bilinear, max_size=None, antialias=False)')
  T.eq(tostring(TV.Resize(28, {max_size = 40})), 'Resize(size=28, interpolation=bilinear, max_size=40, antialias=True)')
  T.eq(tostring(TV.Normalize({0.5}, {0.25})), 'Normalize(mean=[0.5], std=[0.25])')
  T.eq(tostring(TV.Normalize(0.5, 2)), 'Normalize(mean=0.5, std=2)')
  T.eq(tostring(TV.Compose({TV.Resize(64), TV.ToTensor(), TV.Normalize({0.5}, {0.25})})),
       'Compose(\n    Resize(size=64, interpolation=bilinear, max_size=None, antialias=True)\n    ToTensor()\n'
       .. '    Normalize(mean=[0.5], std=[0.25])\n)')
end)

T.test('ToTensor: uint8 (H, W) and (H, W, C) to float (C, H, W) in [0, 1]', function()
  local img = torch.tensor({{0, 255}, {51, 102}}, {dtype = torch.uint8})
  local x = TV.ToTensor()(img)
  T.eq(tostring(x.shape), 'torch.Size([1, 2, 2])')
  T.eq(x.dtype, torch.float32)
  T.close(x, {{{0, 1}, {0.2, 0.4}}}, 1e-7)
  local rgb = torch.arange(12):reshape(2, 2, 3):to(torch.uint8)
  local y = TV.ToTensor()(rgb)
  T.eq(tostring(y.shape), 'torch.Size([3, 2, 2])')
  T.close(y[1], {{1 / 255, 4 / 255}, {7 / 255, 10 / 255}}, 1e-7)
  -- a batch: the same as each image alone
  local batch = torch.stack({img, img:t():contiguous()})
  T.close(TV.ToTensor():batch(batch)[1], TV.ToTensor()(img:t():contiguous()):tolist(), 0)
  T.raises(function() TV.ToTensor()(torch.zeros(2, 2, 2, 2)) end, 'ValueError: pic should be 2/3 dimensional. Got 4 dimensions.')
  T.raises(function() TV.ToTensor()('x') end, 'ToTensor: img should be a Tensor', true)
end)

T.test('Resize: bilinear, antialiased, rounded for uint8, as torchvision on tensors', function()
  local img = (torch.arange(35):reshape(5, 7) * 37 % 256):to(torch.uint8)
  T.close(TV.Resize({3, 4})(img), {{21, 78, 146, 204}, {25, 83, 151, 209}, {30, 88, 156, 213}}, 0)
  T.close(TV.Resize({3, 4}, {antialias = false})(img), {{15, 80, 144, 209}, {20, 85, 149, 214}, {25, 90, 154, 219}}, 0)
  local up = TV.Resize({8, 11})(img)
  T.eq(up.dtype, torch.uint8)
  T.close(up[0], {0, 17, 40, 64, 87, 111, 135, 158, 182, 205, 222}, 0)
  T.close(up[7], {12, 29, 52, 76, 99, 123, 147, 170, 194, 217, 234}, 0)
  -- an int size: the smaller edge becomes it, the aspect ratio kept
  T.close(TV.Resize(4)(img), {{13, 58, 112, 165, 210}, {17, 62, 115, 169, 214}, {20, 65, 119, 172, 217},
                              {24, 69, 122, 176, 221}}, 0)
  local f = (torch.arange(35):reshape(1, 5, 7):float() / 10) ^ 2
  T.close(TV.Resize({3, 4})(f):flatten(), {0.24761903285980225, 0.38279998302459717, 0.6035999655723572,
    0.8419046401977539, 2.330634593963623, 2.808177947998047, 3.4337775707244873, 4.014443874359131,
    6.638094425201416, 7.458000183105469, 8.488399505615234, 9.41142749786377}, 1e-5)
  T.close(TV.Resize({9, 13})(f):flatten()['0:6'], {0.0, 0.003076923778280616, 0.008461540564894676,
    0.021538464352488518, 0.03769231587648392, 0.0630769282579422}, 1e-6)
  -- the same size: the same tensor
  T.truthy(TV.Resize({5, 7})(img) == img, 'an image of the requested size is returned as it is')
  T.raises(function() TV.Resize('x') end, 'TypeError: Size should be int or sequence. Got str')
  T.raises(function() TV.Resize(28, {max_size = 20})(img) end,
           'ValueError: max_size = 20 must be strictly greater than the requested size for the smaller edge size = 28')
end)

T.test('Resize on a CUDA image stays there', function()
  local img = (torch.arange(35):reshape(5, 7) * 37 % 256):to(torch.uint8)
  local out = TV.Resize({3, 4})(img:cuda(1))
  T.eq(tostring(out.device), 'cuda:1')
  T.close(out, TV.Resize({3, 4})(img):tolist(), 0)
end)

T.test('Normalize: per channel, float only', function()
  local x = torch.ones(2, 2, 2)
  x[1]:fill_(3)
  T.close(TV.Normalize({0.5, 1}, {0.25, 2})(x), {{{2, 2}, {2, 2}}, {{1, 1}, {1, 1}}})
  T.close(TV.Normalize(1, 2)(torch.ones(4, 1, 2, 2))[3], {{{0, 0}, {0, 0}}})
  T.raises(function() TV.Normalize({0.5}, {0.5})(torch.ones(1, 2, 2, {dtype = torch.uint8})) end,
           'TypeError: Input tensor should be a float tensor. Got torch.uint8.')
  T.raises(function() TV.Normalize({0.5}, {0.5})(torch.ones(2, 2)) end,
           'ValueError: Expected tensor to be a tensor image of size (..., C, H, W). Got tensor.size() = torch.Size([2, 2])')
  T.raises(function() TV.Normalize({0.5}, {0})(torch.ones(1, 2, 2)) end,
           'ValueError: std evaluated to zero after conversion to torch.float32, leading to division by zero.')
  T.raises(function() TV.Normalize({'a'}, {1}) end, "argument 'mean' must be a sequence of floats", true)
end)

T.test('Compose applies each in turn, and a batch when every step can', function()
  local c = TV.Compose({TV.ToTensor(), TV.Normalize({0.5}, {0.5})})
  local img = torch.tensor({{0, 255}}, {dtype = torch.uint8})
  T.close(c(img), {{{-1, 1}}})
  T.truthy(c:has_batch(), 'ToTensor and Normalize have a batch form')
  local with_fn = TV.Compose({TV.ToTensor(), function(x) return x * 2 end})
  T.close(with_fn(img), {{{0, 2}}})
  T.eq(with_fn:has_batch(), false)
  T.raises(function() TV.Compose({1}) end, 'TypeError: Compose: transform 1 is not callable (int)')
end)

-- ---- the data set --------------------------------------------------------------
local have = io.open('/usr/share/datasets/fashion-mnist/train-labels-idx1-ubyte.gz', 'rb')
if have then have:close() end
if not have then
  print('skipped: the FashionMNIST tests need Debian\'s dataset-fashion-mnist (scripts/setup.sh installs it)')
else
  local train = torchvision.datasets.FashionMNIST{transform = TV.ToTensor()}
  local test = torchvision.datasets.FashionMNIST{root = '/no/such/dir', train = false, download = true}

  T.test('FashionMNIST: sizes, items, labels, printing', function()
    T.eq(#train, 60000)
    T.eq(#test, 10000)
    T.eq(tostring(train.data.shape), 'torch.Size([60000, 28, 28])')
    T.eq(train.data.dtype, torch.uint8)
    T.eq(train.targets.dtype, torch.int64)
    local item = train[0]
    T.eq(tostring(item[1].shape), 'torch.Size([1, 28, 28])')
    T.eq(item[2], 9)  -- torchvision's train[0] is an ankle boot
    T.eq(math.type(item[2]), 'integer')
    T.eq(train[59999][2], train.targets[-1]:item())
    T.eq(test[0][2], 9)
    T.eq(test[0][1].dtype, torch.uint8)  -- no transform: the raw picture
    -- the label counts: 6000 of each class in the training set
    local bincount = rawget(torch, 'bincount')
    T.eq(tostring(bincount and bincount(train.targets) or train.targets:eq(3):sum()),
         bincount and 'tensor([6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000, 6000])' or 'tensor(6000)')
    T.eq(train.data:sum():item(), 3431114169)
    T.eq(tostring(train), 'Dataset FashionMNIST\n    Number of datapoints: 60000\n'
      .. '    Root location: /usr/share/datasets/fashion-mnist\n    Split: Train\n    StandardTransform\nTransform: ToTensor()')
    T.eq(tostring(test), 'Dataset FashionMNIST\n    Number of datapoints: 10000\n    Root location: /no/such/dir\n'
      .. '    Split: Test')
    local composed = torchvision.datasets.FashionMNIST{train = false,
      transform = TV.Compose({TV.Resize(32), TV.ToTensor()}), target_transform = function(y) return y + 100 end}
    T.eq(tostring(composed), 'Dataset FashionMNIST\n    Number of datapoints: 10000\n'
      .. '    Root location: /usr/share/datasets/fashion-mnist\n    Split: Test\n    StandardTransform\n'
      .. 'Transform: Compose(\n'
      .. '               Resize(size=32, interpolation=bilinear, max_size=None, antialias=True)\n'
      .. '               ToTensor()\n           )\nTarget transform: <function>')
    T.eq(tostring(composed[0][1].shape), 'torch.Size([1, 32, 32])')
    T.eq(composed[0][2], 109)
    T.raises(function() return train[60000] end, 'index 60000 is out of bounds', true)
  end)

  T.test('FashionMNIST: a batched DataLoader gives what the items collate to', function()
    for _, ds in ipairs({train, torchvision.datasets.FashionMNIST{train = false,
                         transform = TV.Compose({TV.Resize(14), TV.ToTensor(), TV.Normalize({0.3}, {0.35})})}}) do
      torch.manual_seed(3)
      local loader = torch.utils.data.DataLoader(ds, {batch_size = 64, shuffle = true})
      local fast = loader:iter()()
      -- another collate_fn (doing the same) fetches item by item
      torch.manual_seed(3)
      local items = torch.utils.data.DataLoader(ds, {batch_size = 64, shuffle = true,
        collate_fn = function(b) return torch.utils.data.default_collate(b) end}):iter()()
      T.eq(tostring(fast[1].shape), tostring(items[1].shape))
      T.eq(fast[1]:eq(items[1]):all():item(), true, 'images')
      T.eq(fast[2]:eq(items[2]):all():item(), true, 'labels')
      T.eq(fast[2].dtype, torch.int64)
    end
    -- a Subset of it batches the same way
    local sub = torch.utils.data.Subset(train, {5, 3, 1})
    local b = torch.utils.data.DataLoader(sub, {batch_size = 3}):iter()()
    T.eq(b[2]:tolist()[1], train[5][2])
    T.eq(b[1][2]:eq(train[1][1]):all():item(), true)
    -- one epoch of batches of 256 covers the whole set once
    local seen = 0
    for batch in torch.utils.data.DataLoader(train, {batch_size = 256, shuffle = true}) do seen = seen + batch[2]:numel() end
    T.eq(seen, 60000)
  end)

  T.test('FashionMNIST: bad arguments and missing files', function()
    T.raises(function() torchvision.datasets.FashionMNIST{train = 1} end,
             "TypeError: FashionMNIST(): argument 'train' must be bool, not int")
    T.raises(function() torchvision.datasets.FashionMNIST{transform = 3} end,
             "TypeError: FashionMNIST(): argument 'transform' must be callable, not int")
    T.raises(function() torchvision.datasets.FashionMNIST{rot = 'x'} end,
             "TypeError: FashionMNIST() got an unexpected keyword argument 'rot'")
    T.raises(function() torchvision.datasets.FashionMNIST{root = '/no/such/dir'} end,
             'RuntimeError: Dataset not found. You can use download=True to download it\nhint: no '
             .. 'train-images-idx3-ubyte(.gz) in /no/such/dir/FashionMNIST/raw or /no/such/dir; download=true (or no '
             .. 'root) reads Debian\'s dataset-fashion-mnist package instead')
  end)

  T.test('FashionMNIST: without Debian\'s package, an error naming it', function()
    local out = sh('GPULAB_DATASETS=/no/such/place "' .. exe .. '" -e "torchvision.datasets.FashionMNIST{}"')
    T.truthy(out:find("Dataset not found: Fashion-MNIST comes from Debian's dataset-fashion-mnist package, which is "
                      .. 'not installed here (no /no/such/place/fashion-mnist/train-images-idx3-ubyte.gz)', 1, true), out)
    T.truthy(out:find('hint: sudo apt install dataset-fashion-mnist', 1, true), out)
  end)

  T.test('FashionMNIST: torchvision\'s layout under root, gzip or not', function()
    local dir = os.tmpname()
    os.remove(dir)
    local raw = dir .. '/FashionMNIST/raw'
    sh('mkdir -p ' .. raw .. ' && cp /usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz ' .. raw
       .. ' && gunzip -c /usr/share/datasets/fashion-mnist/t10k-images-idx3-ubyte.gz > ' .. raw .. '/t10k-images-idx3-ubyte')
    local ds = torchvision.datasets.FashionMNIST{root = dir, train = false}
    T.eq(#ds, 10000)
    T.eq(ds.data:eq(test.data):all():item(), true)
    T.eq(ds.targets:eq(test.targets):all():item(), true)
    -- a damaged file: the reader's error names it
    local f = io.open(raw .. '/t10k-images-idx3-ubyte', 'r+b')
    f:write('\1')
    f:close()
    T.raises(function() torchvision.datasets.FashionMNIST{root = dir, train = false} end,
             "RuntimeError: '" .. raw .. "/t10k-images-idx3-ubyte': not an IDX file (its first two bytes should be zero)")
    sh('rm -rf ' .. dir)
  end)
end

-- ---- d2l -------------------------------------------------------------------------
T.test('d2l: Accumulator, accuracy, evaluate_accuracy_gpu', function()
  local m = d2l.Accumulator(2)
  m:add(1, torch.tensor(2.5))
  m:add(2, 0.5)
  T.eq(m[0], 3.0)
  T.eq(m[1], 3.0)
  T.eq(tostring(m), 'Accumulator([3.0, 3.0])')
  T.raises(function() return m[2] end, 'IndexError: list index out of range', true)
  m:reset()
  T.eq(m[0], 0.0)
  local y_hat = torch.tensor({{0.1, 0.3, 0.6}, {0.3, 0.2, 0.5}, {0.9, 0.05, 0.05}})
  T.eq(d2l.accuracy(y_hat, torch.tensor({2, 1, 0})), 2)
  T.eq(d2l.accuracy(torch.tensor({2, 1, 0}), torch.tensor({2, 2, 0})), 2)
  local net = nn.Linear(3, 3):to('cuda:1')
  local X = torch.randn(10, 3)
  local y = net(X:cuda(1)):argmax(1):cpu()
  y[0] = (y[0] + 1) % 3  -- one wrong label of ten
  local loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), {batch_size = 4})
  T.near(d2l.evaluate_accuracy_gpu(net, loader), 0.9, 1e-9)
  T.eq(net.training, false)
  T.near(d2l.evaluate_accuracy(function(x) return net(x:cuda(1)):cpu() end, loader), 0.9, 1e-9)
end)

T.test('d2l: train_ch3 prints a line per epoch and learns', function()
  torch.manual_seed(0)
  local X = torch.randn(200, 2)
  local y = X:select(1, 0):gt(0):long()
  local ds = torch.utils.data.TensorDataset(X, y)
  local it = torch.utils.data.DataLoader(ds, {batch_size = 20, shuffle = true})
  local net = nn.Sequential(nn.Linear(2, 2))
  local lines = {}
  local print0, pyprint0 = print, pyprint
  local function capture(sep)
    return function(...)
      local parts = table.pack(...)
      for i = 1, parts.n do parts[i] = tostring(parts[i]) end
      lines[#lines + 1] = table.concat(parts, sep)
    end
  end
  print, pyprint = capture('\t'), capture(' ')
  local ok, err = pcall(d2l.train_ch6, net, it, it, 3, 0.5, torch.device('cuda:0'))
  print, pyprint = print0, pyprint0
  assert(ok, err)
  T.eq(#lines, 4)
  T.eq(lines[1], 'training on cuda:0')
  T.truthy(lines[4]:match('^epoch 3, loss %d%.%d%d%d, train acc %d%.%d%d%d, test acc %d%.%d%d%d, %d+%.%d examples/sec on cuda:0$'),
           lines[4])
  T.truthy(tonumber(lines[4]:match('test acc ([%d.]+)')) > 0.9, lines[4])
  T.eq(net[0].weight.device.type, 'cuda')
end)

T.test('d2l: quick runs take a slice of Fashion-MNIST', function()
  if not have then return end
  local out = sh('GPULAB_QUICK=1 "' .. exe .. '" -e "a, b = d2l.load_data_fashion_mnist(256); print(#a, #b)"')
  T.eq(out, 'quick run (GPULAB_QUICK=1): the first 2048 of 60000 training images, 1024 of 10000 test images\n8\t4\n')
  out = sh('env -u GPULAB_QUICK "' .. exe .. '" -e "a, b = d2l.load_data_fashion_mnist(256, 32); print(#a, #b, a:iter()()[1].shape)"')
  T.eq(out, '235\t40\ttorch.Size([256, 1, 32, 32])\n')
end)

T.finish()
