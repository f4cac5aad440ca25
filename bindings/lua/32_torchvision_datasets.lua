-- torchvision.datasets.FashionMNIST{root=, train=true, transform=, target_transform=, download=false}
--
-- The IDX files are read in C++ (torch._read_idx, tensor/io/idx.cpp), gzip or
-- not, from torchvision's layout ROOT/FashionMNIST/raw/ or from ROOT itself.
-- There is no network here: the data come from Debian's dataset-fashion-mnist
-- package (/usr/share/datasets/fashion-mnist). Leaving root out, or passing
-- download=true as d2l does, reads them from there when ROOT has none.
-- ds[i] is {image, label} (a uint8 (28, 28) tensor, gpulab's stand-in for the
-- PIL image, through `transform`; a Lua integer through `target_transform`).
local U = torch._util
local data = torch.utils.data
torchvision = torchvision or {}
torchvision.datasets = torchvision.datasets or {}

-- GPULAB_DATASETS moves Debian's /usr/share/datasets (tests use it to see the error without the package).
local function debian_dir()
  return (os.getenv('GPULAB_DATASETS') or '/usr/share/datasets') .. '/fashion-mnist'
end
local function exists(path)
  local f = io.open(path, 'rb')
  if f then f:close() end
  return f ~= nil
end

-- The folder among `dirs` that holds all of `files` (each plain or .gz), and the file paths.
local function find_files(dirs, files)
  for _, dir in ipairs(dirs) do
    local paths = {}
    for i, name in ipairs(files) do
      local p = dir .. '/' .. name
      if exists(p) then paths[i] = p elseif exists(p .. '.gz') then paths[i] = p .. '.gz' end
    end
    if #paths == #files then return paths end
  end
end

local FashionMNIST = data.Dataset:extend('FashionMNIST')
torchvision.datasets.FashionMNIST = FashionMNIST
FashionMNIST.classes = {'T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal', 'Shirt', 'Sneaker', 'Bag',
                        'Ankle boot'}
U.doc(FashionMNIST, 'torchvision.datasets.FashionMNIST{root=, train=true, transform=, target_transform=, download=false}:\n'
  .. '  Zalando\'s 28x28 grey images of clothes in 10 classes (60 000 to train, 10 000 to test), from Debian\'s\n'
  .. '  dataset-fashion-mnist package (root left out, or download=true: there is no network here).\n'
  .. '  ds[i] is {image, label}: a uint8 (28, 28) tensor through `transform`, and an integer 0..9.\n'
  .. '  ds.data (N, 28, 28) uint8 and ds.targets (N) int64 hold them all; FashionMNIST.classes names the labels.')

function FashionMNIST:__init(...)
  local a = U.parse('FashionMNIST', {'root', 'train', 'transform', 'target_transform', 'download'},
                    {train = true, download = false}, ...)
  U.check('FashionMNIST', 'root', 'str', a.root)
  U.check('FashionMNIST', 'train', 'bool', a.train)
  U.check('FashionMNIST', 'download', 'bool', a.download)
  U.check_callable('FashionMNIST', a.transform, 'transform')
  U.check_callable('FashionMNIST', a.target_transform, 'target_transform')
  self.train, self.transform, self.target_transform = a.train, a.transform, a.target_transform
  local split = a.train and 'train' or 't10k'
  local files = {split .. '-images-idx3-ubyte', split .. '-labels-idx1-ubyte'}
  local paths
  if a.root ~= nil then paths = find_files({a.root .. '/FashionMNIST/raw', a.root}, files) end
  if paths == nil and (a.root == nil or a.download) then
    paths = find_files({debian_dir()}, files)
    if paths == nil then
      error(('RuntimeError: Dataset not found: Fashion-MNIST comes from Debian\'s dataset-fashion-mnist package, '
        .. 'which is not installed here (no %s/%s.gz)\n'
        .. 'hint: sudo apt install dataset-fashion-mnist (scripts/setup.sh installs it), or pass root= a folder '
        .. 'holding the IDX files'):format(debian_dir(), files[1]), 0)
    end
  end
  if paths == nil then
    error(('RuntimeError: Dataset not found. You can use download=True to download it\n'
      .. 'hint: no %s(.gz) in %s/FashionMNIST/raw or %s; download=true (or no root) reads Debian\'s '
      .. 'dataset-fashion-mnist package instead'):format(files[1], a.root, a.root), 0)
  end
  self.root = a.root or debian_dir()
  self.data = torch._read_idx(paths[1])
  self.targets = torch._read_idx(paths[2]):long()
  if self.data:dim() ~= 3 or self.targets:dim() ~= 1 or self.data:size(0) ~= self.targets:size(0) then
    error(('RuntimeError: %s and %s do not hold Fashion-MNIST: images %s, labels %s'):format(paths[1], paths[2],
      tostring(self.data:size()), tostring(self.targets:size())), 0)
  end
end

function FashionMNIST:__len() return self.data:size(0) end

function FashionMNIST:__getitem(i)
  if math.type(i) ~= 'integer' then U.type_error('FashionMNIST.__getitem__', 'index', 'int', i) end
  local img, target = self.data[i], self.targets[i]:item()
  if self.transform ~= nil then img = self.transform(img) end
  if self.target_transform ~= nil then target = self.target_transform(target) end
  return {img, target}
end

-- A whole batch for the DataLoader (torch.utils.data, fetch): one index_select
-- for the images and one for the labels, and the transform applied to the
-- stack when it has a batch form; the same values as collating the items.
local function batchable(t)
  if t == nil then return true end
  if type(t) ~= 'table' or type(t.batch) ~= 'function' then return false end
  return t.has_batch == nil or t:has_batch()
end
function FashionMNIST:__getbatch(idx)
  if not batchable(self.transform) or self.target_transform ~= nil then return nil end
  local index = torch.tensor(idx)
  local images = self.data:index_select(0, index)
  if self.transform ~= nil then images = self.transform:batch(images) end
  return {images, self.targets:index_select(0, index)}
end

-- As torchvision's VisionDataset.__repr__ (the transforms' block is not indented after its first line).
function FashionMNIST:__tostring()
  local lines = {'Dataset FashionMNIST', '    Number of datapoints: ' .. #self}
  if self.root ~= nil then lines[#lines + 1] = '    Root location: ' .. self.root end
  lines[#lines + 1] = '    Split: ' .. (self.train and 'Train' or 'Test')
  if self.transform ~= nil or self.target_transform ~= nil then
    local body = {'StandardTransform'}
    local function add(t, head)
      local text = U.split_lines(type(t) == 'function' and '<function>' or tostring(t))
      body[#body + 1] = head .. text[1]
      for k = 2, #text do body[#body + 1] = (' '):rep(#head) .. text[k] end
    end
    if self.transform ~= nil then add(self.transform, 'Transform: ') end
    if self.target_transform ~= nil then add(self.target_transform, 'Target transform: ') end
    lines[#lines + 1] = '    ' .. table.concat(body, '\n')
  end
  return table.concat(lines, '\n')
end
