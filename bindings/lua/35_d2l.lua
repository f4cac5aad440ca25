-- d2l: the helpers of "Dive into Deep Learning" (d2l.ai, its PyTorch code) that
-- the course's d2l lessons call, written out small so a learner can read them
-- (help(d2l.train_ch6), or this file). Where the book draws an animated plot,
-- these print one line per epoch in the form of the book's final lines:
--   epoch 3, loss 0.469, train acc 0.823, test acc 0.779, 55296.6 examples/sec on cuda:0
-- and, in a notebook only, draw the plot too (d2l.Animator).
-- Indices follow PyTorch (an Accumulator's first sum is metric[0]).
local U = torch._util
d2l = d2l or {}

d2l.try_gpu = function(i) return try_gpu(i) end
d2l.try_all_gpus = function() return try_all_gpus() end

-- GPULAB_QUICK=1 (the course's tests set it) makes the lessons train on a
-- slice of Fashion-MNIST for fewer epochs, so that their transcripts are
-- checked in seconds; a learner gets the whole data set.
function d2l.quick() return os.getenv('GPULAB_QUICK') == '1' end
local QUICK_TRAIN, QUICK_TEST = 2048, 1024

-- ---- Timer and Accumulator --------------------------------------------------
local Timer = U.class('Timer', nil, function(cls) return {__index = cls, __name = 'Timer'} end)
d2l.Timer = Timer
function Timer.new(cls)
  local self = setmetatable({times = {}}, cls.__meta)
  self:start()
  return self
end
function Timer:start() self.tik = time.perf_counter() end
function Timer:stop()
  self.times[#self.times + 1] = time.perf_counter() - self.tik
  return self.times[#self.times]
end
function Timer:sum()
  local s = 0.0
  for _, t in ipairs(self.times) do s = s + t end
  return s
end
function Timer:avg() return #self.times > 0 and self:sum() / #self.times or 0.0 end

-- Accumulator(n): n running sums; add(a, b, ...) adds numbers or one-element
-- tensors (read with item(), which waits for a GPU); metric[i] from 0.
local Accumulator = U.class('Accumulator', nil, function(cls)
  return {
    __name = 'Accumulator',
    __index = function(self, k)
      if math.type(k) == 'integer' then
        local v = rawget(self, 'data')[k + 1]
        if v == nil then error(('IndexError: list index out of range (Accumulator of %d, index %d)'):format(#self.data, k), 2) end
        return v
      end
      return cls[k]
    end,
    __tostring = function(self) return 'Accumulator(' .. U.repr(self.data) .. ')' end,
  }
end)
d2l.Accumulator = Accumulator
function Accumulator.new(cls, n)
  if math.type(n) ~= 'integer' or n < 0 then U.type_error('Accumulator', 'n', 'a count (int >= 0)', n) end
  local self = setmetatable({data = {}}, cls.__meta)
  for i = 1, n do self.data[i] = 0.0 end
  return self
end
function Accumulator:add(...)
  for i = 1, #self.data do
    local b = select(i, ...)
    if U.is_tensor(b) then b = b:item() end
    self.data[i] = self.data[i] + (b or 0)
  end
end
function Accumulator:reset()
  for i = 1, #self.data do self.data[i] = 0.0 end
end

-- ---- accuracy ------------------------------------------------------------------
-- The number of correct predictions, a float as d2l's float(...): y_hat holds
-- one row of scores per example, or the predicted classes already.
function d2l.accuracy(y_hat, y)
  if y_hat:dim() > 1 and y_hat:size(1) > 1 then y_hat = y_hat:argmax(1) end
  local cmp = y_hat:to(y.dtype):eq(y)
  return cmp:to(y.dtype):sum():item() + 0.0
end

local function is_module(net) return type(net) == 'table' and type(net.parameters) == 'function' end

-- The accuracy of `net` (a module or a function) over a data iterator, on the CPU.
function d2l.evaluate_accuracy(net, data_iter)
  if is_module(net) then net:eval() end
  local metric = Accumulator(2)
  torch.no_grad(function()
    for X, y in data_iter do
      metric:add(d2l.accuracy(net(X), y), y:numel())
    end
  end)
  return metric[0] / metric[1]
end

-- The same on `device` (by default the device of the net's first parameter).
function d2l.evaluate_accuracy_gpu(net, data_iter, device)
  if is_module(net) then
    net:eval()
    device = device or net:parameters()[1].device
  end
  local metric = Accumulator(2)
  torch.no_grad(function()
    for X, y in data_iter do
      if device ~= nil then X, y = X:to(device), y:to(device) end
      metric:add(d2l.accuracy(net(X), y), y:numel())
    end
  end)
  return metric[0] / metric[1]
end

-- ---- training ------------------------------------------------------------------
-- One epoch (d2l's train_epoch_ch3, on `device` when given): `updater` is an
-- optimizer, or a function(batch_size) that updates the parameters from their
-- gradients (the from-scratch sgd). `loss` may return one loss per example or
-- their mean. Returns the mean loss, the accuracy, the number of examples and
-- the seconds spent (the timer stops after each batch's item(), which waits).
function d2l.train_epoch_ch3(net, train_iter, loss, updater, device)
  if is_module(net) then net:train() end
  local metric, timer = Accumulator(3), Timer()
  local optimizer = type(updater) == 'table' and type(updater.step) == 'function'
  local seconds = 0.0
  for X, y in train_iter do
    timer:start()
    if device ~= nil then X, y = X:to(device), y:to(device) end
    local y_hat = net(X)
    local l = loss(y_hat, y)
    local n = y:numel()
    local total = l:dim() > 0 and l:sum() or l * n
    if optimizer then
      local mean = l:dim() > 0 and l:mean() or l
      updater:zero_grad()
      mean:backward()
      updater:step()
    else
      total:backward()
      updater(n)
    end
    torch.no_grad(function() metric:add(total:detach(), d2l.accuracy(y_hat:detach(), y), n) end)
    seconds = seconds + timer:stop()
  end
  return metric[0] / metric[2], metric[1] / metric[2], metric[2], seconds
end

local function epoch_line(epoch, train_l, train_acc, test_acc, examples, seconds, device)
  return ('epoch %d, loss %.3f, train acc %.3f, test acc %.3f, %.1f examples/sec on %s'):format(epoch, train_l,
    train_acc, test_acc, examples / math.max(seconds, 1e-9), tostring(device or 'cpu'))
end

-- In a notebook (torch.utils._notebook(): a kernel's display reaches one) the
-- book's d2l.Animator (38_d2l_plot.lua) draws train loss, train acc and test
-- acc per epoch, one figure updated in place; in a terminal, or without cairo,
-- there is none, and nothing more is printed.
local function epoch_animator(num_epochs, ylim)
  if not (torch.utils.plot._in_notebook() and torch._have_cairo()) then return nil end
  return d2l.Animator{xlabel = 'epoch', xlim = {1, math.max(num_epochs, 2)}, ylim = ylim,
                      legend = {'train loss', 'train acc', 'test acc'}}
end

local function train_epochs(net, train_iter, test_iter, loss, num_epochs, updater, device, ylim)
  local animator = epoch_animator(num_epochs, ylim)
  for epoch = 1, num_epochs do
    local train_l, train_acc, n, seconds = d2l.train_epoch_ch3(net, train_iter, loss, updater, device)
    local test_acc = d2l.evaluate_accuracy_gpu(net, test_iter, device)
    if animator then animator:add(epoch, {train_l, train_acc, test_acc}) end
    print(epoch_line(epoch, train_l, train_acc, test_acc, n, seconds, device))
  end
end

-- d2l's train_ch3, on `device` (nil: where the data are), printing a line per
-- epoch (and, in a notebook, drawing the book's animated plot, its y axis
-- from 0.3 to 0.9; free in a quick run, whose loss stays above 0.9). Returns
-- nothing, as d2l's (a lesson's cell would echo it).
function d2l.train_ch3(net, train_iter, test_iter, loss, num_epochs, updater, device)
  local ylim = not d2l.quick() and {0.3, 0.9} or nil
  train_epochs(net, train_iter, test_iter, loss, num_epochs, updater, device, ylim)
end

-- d2l's train_ch6: Xavier-initialised weights, SGD with learning rate `lr`,
-- cross-entropy loss, everything on `device`.
function d2l.train_ch6(net, train_iter, test_iter, num_epochs, lr, device)
  net:apply(function(m)
    local cls = U.class_of(m)
    if cls == nn.Linear or (nn.Conv2d ~= nil and cls == nn.Conv2d) then nn.init.xavier_uniform_(m.weight) end
  end)
  pyprint('training on', device)
  net:to(device)
  local optimizer = torch.optim.SGD(net:parameters(), {lr = lr})
  -- the loss starts above 2: the plot's y axis is left free, as the book's
  train_epochs(net, train_iter, test_iter, nn.CrossEntropyLoss(), num_epochs, optimizer, device, nil)
end

-- ---- Fashion-MNIST ---------------------------------------------------------------
function d2l.get_fashion_mnist_labels(labels)
  if U.is_tensor(labels) then labels = labels:tolist() end
  local out = {}
  for i, l in ipairs(labels) do out[i] = torchvision.datasets.FashionMNIST.classes[l + 1] end
  return out
end

function d2l.get_dataloader_workers() return 4 end

-- d2l's load_data_fashion_mnist: the training and test loaders, the images
-- resized to `resize` first when given. In a quick run (d2l.quick()) the first
-- 2048 training and 1024 test images only.
function d2l.load_data_fashion_mnist(batch_size, resize)
  local trans = {torchvision.transforms.ToTensor()}
  if resize then table.insert(trans, 1, torchvision.transforms.Resize(resize)) end
  trans = torchvision.transforms.Compose(trans)
  local root = '../data'
  local mnist_train = torchvision.datasets.FashionMNIST{root = root, train = true, transform = trans, download = true}
  local mnist_test = torchvision.datasets.FashionMNIST{root = root, train = false, transform = trans, download = true}
  if d2l.quick() then
    local function first(ds, n)
      local idx = {}
      for i = 1, math.min(n, #ds) do idx[i] = i - 1 end
      return torch.utils.data.Subset(ds, idx)
    end
    print(('quick run (GPULAB_QUICK=1): the first %d of %d training images, %d of %d test images'):format(
      QUICK_TRAIN, #mnist_train, QUICK_TEST, #mnist_test))
    mnist_train, mnist_test = first(mnist_train, QUICK_TRAIN), first(mnist_test, QUICK_TEST)
  end
  local DataLoader = torch.utils.data.DataLoader
  return DataLoader(mnist_train, {batch_size = batch_size, shuffle = true, num_workers = d2l.get_dataloader_workers()}),
         DataLoader(mnist_test, {batch_size = batch_size, shuffle = false, num_workers = d2l.get_dataloader_workers()})
end

-- help(d2l.name) for each.
local docs = {
  try_gpu = 'd2l.try_gpu(i=0): cuda:i when that GPU exists, else the CPU (the global try_gpu).',
  try_all_gpus = 'd2l.try_all_gpus(): every GPU, or {cpu} when there is none.',
  quick = 'd2l.quick(): true when GPULAB_QUICK=1: the lessons then train on a slice of the data, briefly.',
  accuracy = 'd2l.accuracy(y_hat, y): how many rows of y_hat have their largest score at the label y (a number).',
  evaluate_accuracy = 'd2l.evaluate_accuracy(net, data_iter): the fraction of examples net classifies right.',
  evaluate_accuracy_gpu = 'd2l.evaluate_accuracy_gpu(net, data_iter, device=nil): the same, each batch moved to\n'
    .. 'device (default: where the net\'s parameters are), in eval mode, without autograd.',
  train_epoch_ch3 = 'd2l.train_epoch_ch3(net, train_iter, loss, updater, device=nil) -> loss, accuracy, examples,\n'
    .. 'seconds of one epoch; updater: an optimizer, or a function(batch_size) updating the parameters.',
  train_ch3 = 'd2l.train_ch3(net, train_iter, test_iter, loss, num_epochs, updater, device=nil): trains, printing\n'
    .. '"epoch N, loss L, train acc A, test acc B, R examples/sec on DEVICE" per epoch (in a notebook it also\n'
    .. 'draws train loss, train acc and test acc per epoch in a d2l.Animator, as the book does).',
  train_ch6 = 'd2l.train_ch6(net, train_iter, test_iter, num_epochs, lr, device): Xavier init, SGD(lr),\n'
    .. 'cross-entropy, on device; one line per epoch as train_ch3.',
  get_fashion_mnist_labels = 'd2l.get_fashion_mnist_labels(labels): the class names of labels 0..9.',
  get_dataloader_workers = 'd2l.get_dataloader_workers(): 4, as d2l (gpulab\'s DataLoader loads in-process).',
  load_data_fashion_mnist = 'd2l.load_data_fashion_mnist(batch_size, resize=nil) -> train_iter, test_iter: shuffled\n'
    .. 'training batches and test batches of Fashion-MNIST (ToTensor, after Resize(resize) when given).',
}
for name, text in pairs(docs) do torch._set_doc(d2l[name], text) end
U.doc(Timer, 'd2l.Timer(): start(), stop() -> seconds, sum(), avg() of the recorded times.')
U.doc(Accumulator, 'd2l.Accumulator(n): n running sums; add(a, b, ...), reset(), metric[i] (i from 0).')
