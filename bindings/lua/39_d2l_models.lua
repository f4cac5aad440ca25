-- The data and models d2l's chapters 3, 4 and 7 build on its Module,
-- DataModule and Trainer (39_d2l_core.lua), as d2l/torch.py defines them.
local U = torch._util

local function subclass(parent, name)
  local cls = parent:extend(name)
  rawset(cls, '__module', 'd2l.torch')
  d2l[name] = cls
  return cls
end

-- ---- data -----------------------------------------------------------------------
-- y = X w + b + noise, num_train rows for training and num_val for validation.
local SyntheticRegressionData = subclass(d2l.DataModule, 'SyntheticRegressionData')
function SyntheticRegressionData:__init(w, b, noise, num_train, num_val, batch_size)
  d2l.DataModule.__init(self)
  noise, num_train, num_val, batch_size = noise or 0.01, num_train or 1000, num_val or 1000, batch_size or 32
  self:save_hyperparameters()
  local n = num_train + num_val
  self.X = torch.randn(n, #w)
  noise = torch.randn(n, 1) * noise
  self.y = torch.matmul(self.X, w:reshape(-1, 1)) + b + noise
end
function SyntheticRegressionData:get_dataloader(train)
  local i = train and ('0:' .. self.num_train) or (self.num_train .. ':')
  return self:get_tensorloader({self.X, self.y}, train, i)
end

-- Fashion-MNIST as a DataModule: batches of (images, labels), resized.
local FashionMNIST = subclass(d2l.DataModule, 'FashionMNIST')
function FashionMNIST:__init(batch_size, resize)
  d2l.DataModule.__init(self)
  batch_size, resize = batch_size or 64, resize or {28, 28}
  self:save_hyperparameters()
  local T = torchvision.transforms
  local trans = T.Compose({T.Resize(resize), T.ToTensor()})
  self.train = torchvision.datasets.FashionMNIST{root = self.root, train = true, transform = trans, download = true}
  self.val = torchvision.datasets.FashionMNIST{root = self.root, train = false, transform = trans, download = true}
end
function FashionMNIST:text_labels(indices)
  local labels = {'t-shirt', 'trouser', 'pullover', 'dress', 'coat', 'sandal', 'shirt', 'sneaker', 'bag', 'ankle boot'}
  local out = {}
  if U.is_tensor(indices) then indices = indices:tolist() end
  for i, v in ipairs(indices) do out[i] = labels[math.tointeger(v) + 1] end
  return out
end
function FashionMNIST:get_dataloader(train)
  local data = train and self.train or self.val
  return torch.utils.data.DataLoader(data, {batch_size = self.batch_size, shuffle = train, num_workers = self.num_workers})
end
function FashionMNIST:visualize(batch, nrows, ncols, labels)
  local X, y = batch[1], batch[2]
  if labels == nil or #labels == 0 then labels = self:text_labels(y) end
  return d2l.show_images(X:squeeze(1), nrows or 1, ncols or 8, labels)
end

-- ---- linear regression ---------------------------------------------------------------
local LinearRegressionScratch = subclass(d2l.Module, 'LinearRegressionScratch')
function LinearRegressionScratch:__init(num_inputs, lr, sigma)
  d2l.Module.__init(self)
  sigma = sigma or 0.01
  self:save_hyperparameters()
  self.w = torch.normal(0, sigma, {num_inputs, 1}, {requires_grad = true})
  self.b = torch.zeros(1, {requires_grad = true})
end
function LinearRegressionScratch:forward(X) return torch.matmul(X, self.w) + self.b end
function LinearRegressionScratch:loss(y_hat, y) return ((y_hat - y) ^ 2 / 2):mean() end
function LinearRegressionScratch:configure_optimizers() return d2l.SGD({self.w, self.b}, self.lr) end

-- Minibatch SGD written out: param -= lr * grad.
local SGD = subclass(d2l.HyperParameters, 'SGD')
function SGD:__init(params, lr) self:save_hyperparameters() end
function SGD:step()
  for _, param in ipairs(self.params) do param:sub_(self.lr * param.grad) end
end
function SGD:zero_grad()
  for _, param in ipairs(self.params) do
    if param.grad ~= nil then param.grad:zero_() end
  end
end

local LinearRegression = subclass(d2l.Module, 'LinearRegression')
function LinearRegression:__init(lr)
  d2l.Module.__init(self)
  self:save_hyperparameters()
  self.net = nn.LazyLinear(1)
  self.net.weight.data:normal_(0, 0.01)
  self.net.bias.data:fill_(0)
end
function LinearRegression:forward(X) return self.net(X) end
function LinearRegression:loss(y_hat, y) return nn.MSELoss()(y_hat, y) end
function LinearRegression:configure_optimizers() return torch.optim.SGD(self:parameters(), self.lr) end
function LinearRegression:get_w_b() return self.net.weight.data, self.net.bias.data end

-- ---- classification ------------------------------------------------------------------
local Classifier = subclass(d2l.Module, 'Classifier')
function Classifier:validation_step(batch)
  local Y_hat = self(table.unpack(batch, 1, #batch - 1))
  self:plot('loss', self:loss(Y_hat, batch[#batch]), false)
  self:plot('acc', self:accuracy(Y_hat, batch[#batch]), false)
end
function Classifier:accuracy(Y_hat, Y, averaged)
  Y_hat = Y_hat:reshape(-1, Y_hat.shape[Y_hat:dim() - 1])
  local preds = Y_hat:argmax(1):type(Y.dtype)
  local compare = preds:eq(Y:reshape(-1)):type(torch.float32)
  if averaged == false then return compare end
  return compare:mean()
end
function Classifier:loss(Y_hat, Y, averaged)
  Y_hat = Y_hat:reshape(-1, Y_hat.shape[Y_hat:dim() - 1])
  Y = Y:reshape(-1)
  return F.cross_entropy(Y_hat, Y, {reduction = averaged == false and 'none' or 'mean'})
end
-- Each layer's output shape for an input of X_shape (d2l's layer_summary).
function Classifier:layer_summary(X_shape)
  local X = torch.randn(X_shape)
  for layer in self.net do
    X = layer(X)
    print(layer:_get_name(), 'output shape:\t', X.shape)
  end
end

local SoftmaxRegression = subclass(d2l.Classifier, 'SoftmaxRegression')
function SoftmaxRegression:__init(num_outputs, lr)
  d2l.Module.__init(self)
  self:save_hyperparameters()
  self.net = nn.Sequential(nn.Flatten(), nn.LazyLinear(num_outputs))
end
function SoftmaxRegression:forward(X) return self.net(X) end

-- ---- CNNs --------------------------------------------------------------------------
-- Xavier-uniform weights for every Linear and Conv2d (d2l's init_cnn). A
-- lazy layer before its first call is not one yet (Python's type() is
-- LazyLinear), so it is left alone, as in the book's ResNet __init.
function d2l.init_cnn(module)
  local cls = U.class_of(module)
  if cls == nn.Linear or cls == nn.Conv2d then nn.init.xavier_uniform_(module.weight) end
end

-- 2-D cross-correlation written out (d2l's corr2d).
function d2l.corr2d(X, K)
  local h, w = K.shape[0], K.shape[1]
  local Y = torch.zeros(X.shape[0] - h + 1, X.shape[1] - w + 1)
  for i = 0, Y.shape[0] - 1 do
    for j = 0, Y.shape[1] - 1 do
      Y[('%d, %d'):format(i, j)] = (X[('%d:%d, %d:%d'):format(i, i + h, j, j + w)] * K):sum()
    end
  end
  return Y
end

-- help(d2l.Trainer) and the others
local docs = {
  HyperParameters = 'd2l.HyperParameters: self:save_hyperparameters(ignore) in an __init makes its arguments fields\n'
    .. '  (and self.hparams), after the defaults were applied',
  ProgressBoard = 'd2l.ProgressBoard(xlabel, ylabel, xlim, ylim, ...): board:draw(x, y, label, every_n) plots the mean\n'
    .. '  of every every_n points of each label, redrawn in place in a notebook; board:show() writes the\n'
    .. '  figure (a PNG and its curves as bars in a terminal)',
  Module = 'd2l.Module(plot_train_per_epoch=2, plot_valid_per_epoch=1): an nn.Module with hyperparameters and a\n'
    .. '  board; a model defines loss, forward (or self.net) and configure_optimizers; training_step and\n'
    .. '  validation_step plot the loss',
  DataModule = 'd2l.DataModule(root, num_workers): get_dataloader(train) gives the batches; train_dataloader(),\n'
    .. '  val_dataloader(), get_tensorloader(tensors, train, indices)',
  Trainer = 'd2l.Trainer(max_epochs, num_gpus=0, gradient_clip_val=0): trainer:fit(model, data) runs the epochs,\n'
    .. '  on cuda:0 with num_gpus=1 (d2l.Trainer{max_epochs=10, num_gpus=1})',
  SyntheticRegressionData = 'd2l.SyntheticRegressionData(w, b, noise=0.01, num_train=1000, num_val=1000, batch_size=32)',
  LinearRegressionScratch = 'd2l.LinearRegressionScratch(num_inputs, lr, sigma=0.01): w and b by hand, d2l.SGD',
  SGD = 'd2l.SGD(params, lr): param -= lr * param.grad',
  LinearRegression = 'd2l.LinearRegression(lr): nn.LazyLinear(1), nn.MSELoss, torch.optim.SGD; get_w_b()',
  FashionMNIST = 'd2l.FashionMNIST(batch_size=64, resize={28, 28}): the data set as a DataModule; text_labels,\n'
    .. '  visualize(batch)',
  Classifier = 'd2l.Classifier: a Module whose validation also plots the accuracy; accuracy(Y_hat, Y),\n'
    .. '  loss (cross-entropy), layer_summary(X_shape)',
  SoftmaxRegression = 'd2l.SoftmaxRegression(num_outputs, lr): Flatten and LazyLinear',
}
for name, text in pairs(docs) do U.doc(d2l[name], text) end
