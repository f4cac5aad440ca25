-- d2l's classes (bindings/lua/39_d2l_*.lua) running the book's code: the
-- trained values of chapters 3.4 and 3.5 against PyTorch's for the same
-- computation (d2l_classes_expected.lua, tests/pytorch/gen_d2l_classes.py),
-- then hyperparameters, keywords, the GPU, classification and CNN helpers.
-- Run: gpulab --virtual-gpus 4 tests/lua/test_d2l_classes.lua
local dir = arg[0]:match('^(.*)[/\\]') or '.'
local T = dofile(dir .. '/testlib.lua')
local expected = dofile(dir .. '/d2l_classes_expected.lua')

local function quiet(model)
  model.board.display = false
  return model
end

T.test("3.4: LinearRegressionScratch fitted by the Trainer gives PyTorch's weights", function()
  torch.manual_seed(0)
  local model = quiet(d2l.LinearRegressionScratch(2, {lr = 0.03}))
  local data = d2l.SyntheticRegressionData{w = torch.tensor({2, -3.4}), b = 4.2}
  d2l.Trainer{max_epochs = 3}:fit(model, data)
  local got = torch.no_grad(function()
    return tostring(data.w - model.w:reshape(data.w.shape)) .. ' ' .. tostring(data.b - model.b)
  end)
  T.eq(got, expected.scratch)
end)

T.test("3.5: LinearRegression (a LazyLinear) gets its optimizer after its first call, as PyTorch's works", function()
  torch.manual_seed(0)
  local model = quiet(d2l.LinearRegression(0.03))
  local data = d2l.SyntheticRegressionData(torch.tensor({2, -3.4}), 4.2)
  d2l.Trainer(3):fit(model, data)
  local w, b = model:get_w_b()
  T.eq(tostring(w) .. ' ' .. tostring(b), expected.concise)
end)

T.test('save_hyperparameters and keywords as Python passes them', function()
  local data = d2l.SyntheticRegressionData(torch.tensor({1., 2.}), 0.5, {num_train = 10, num_val = 6, batch_size = 4})
  T.eq(data.num_train, 10); T.eq(data.noise, 0.01, 'a default'); T.eq(data.batch_size, 4)
  T.eq(data.hparams.num_val, 6)
  T.eq(#data:train_dataloader(), 3); T.eq(#data:val_dataloader(), 2)
  local X, y = next(iter(data:train_dataloader()))
  T.eq(tostring(X.shape) .. tostring(y.shape), 'torch.Size([4, 2])torch.Size([4, 1])')
  T.raises(function() d2l.Trainer{max_epoch = 3} end, "TypeError: Trainer() got an unexpected keyword argument 'max_epoch'")
  T.raises(function() d2l.Trainer(3, {max_epochs = 4}) end, "TypeError: Trainer() got multiple values for argument 'max_epochs'")
  -- a learner's class, with ignore
  local M = d2l.Module:extend('M')
  function M:__init(a, b, _c)
    d2l.Module.__init(self)
    b = b or 7
    self:save_hyperparameters({'a'})
  end
  local m = M{a = 1, _c = 3}
  T.eq(m.a, nil, 'ignored'); T.eq(m.b, 7); T.eq(m._c, nil, 'a leading _ is not a hyperparameter')
  T.eq(m.plot_train_per_epoch, 2, "d2l.Module's own")
  T.eq(tostring(M), "<class '__main__.M'>")
  T.eq(tostring(d2l.Trainer), "<class 'd2l.torch.Trainer'>")
end)

T.test('Trainer{num_gpus=1} trains on cuda:0; gradient clipping', function()
  torch.manual_seed(1)
  local model = quiet(d2l.LinearRegression(0.03))
  local data = d2l.SyntheticRegressionData(torch.tensor({2, -3.4}), 4.2, {num_train = 64, num_val = 32})
  local trainer = d2l.Trainer{max_epochs = 2, num_gpus = 1, gradient_clip_val = 1}
  trainer:fit(model, data)
  T.eq(tostring(model.net.weight.device), 'cuda:0')
  T.eq(trainer.train_batch_idx, 4); T.eq(trainer.val_batch_idx, 2)
  T.eq(#model.board.data.train_loss, 4, 'two train points an epoch')
  T.eq(#model.board.data.val_loss, 2, 'one validation point an epoch')
  T.eq(math.type(model.board.data.val_loss[1][2]), 'float')
end)

T.test('Classifier: accuracy, loss, layer_summary; SoftmaxRegression learns a separable set', function()
  local c = d2l.Classifier()
  local Y_hat, Y = torch.tensor({{0.1, 0.9}, {0.8, 0.2}, {0.3, 0.7}}), torch.tensor({1, 1, 1})
  T.eq(tostring(c:accuracy(Y_hat, Y)), 'tensor(0.6667)')
  T.eq(tostring(c:accuracy(Y_hat, Y, false)), 'tensor([1., 0., 1.])')
  T.near(c:loss(Y_hat, Y):item(), F.cross_entropy(Y_hat, Y):item(), 1e-7)
  torch.manual_seed(0)
  local X = torch.randn(64, 2)
  local labels = X[':, 0']:gt(0):long()
  local Data = d2l.DataModule:extend('Blobs')
  function Data:__init() d2l.DataModule.__init(self); self.batch_size = 16 end
  function Data:get_dataloader(train) return self:get_tensorloader({X, labels}, train) end
  local model = quiet(d2l.SoftmaxRegression(2, 0.5))
  d2l.Trainer(20):fit(model, Data())
  T.eq(model:accuracy(model(X), labels):item() > 0.9, true)
  local lines = {}
  local print0 = print
  print = function(...) lines[#lines + 1] = table.concat({tostring((...)), tostring(select(2, ...)), tostring(select(3, ...))}, ' ') end
  local ok, err = pcall(function() model:layer_summary({3, 2}) end)
  print = print0
  T.eq(ok, true, tostring(err))
  T.eq(lines[1], 'Flatten output shape:\t torch.Size([3, 2])')
  T.eq(lines[2], 'Linear output shape:\t torch.Size([3, 2])')
end)

T.test("corr2d and init_cnn as d2l's", function()
  local X = torch.tensor({{0., 1., 2.}, {3., 4., 5.}, {6., 7., 8.}})
  local K = torch.tensor({{0., 1.}, {2., 3.}})
  T.eq(tostring(d2l.corr2d(X, K)), 'tensor([[19., 25.],\n        [37., 43.]])')
  local net = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.Linear(4, 2))
  torch.manual_seed(0)
  net:apply(d2l.init_cnn)
  local bound = math.sqrt(6 / (4 + 2))
  T.eq(net[2].weight:abs():max():item() <= bound, true)
  -- a lazy layer is not a Linear yet: left alone, as the book's ResNet __init relies on
  local lazy = nn.Sequential(nn.LazyLinear(3))
  lazy:apply(d2l.init_cnn)
  T.eq(tostring(lazy[0].weight), '<UninitializedParameter>')
end)

T.test('for layer in net do: a Sequential\'s modules, a shared one each time it is there', function()
  local shared = nn.Linear(2, 2)
  local names = {}
  for m in nn.Sequential(shared, nn.ReLU(), shared) do names[#names + 1] = m:_get_name() end
  T.eq(table.concat(names, ' '), 'Linear ReLU Linear')
  local n = 0
  for _ = 1, 2 do for m in nn.Sequential(nn.ReLU(), nn.Tanh()) do n = n + 1 end end
  T.eq(n, 4, 'a new loop starts from the first module')
  T.raises(function() for m in nn.Linear(2, 2) do end end, "TypeError: 'Linear' object is not iterable")
end)

T.finish()
