-- d2l's Module, DataModule and Trainer (39_d2l_classes.lua has the rest of
-- the design, 39_d2l_models.lua what the book builds on them): a model says its loss, optimizer and steps, the data its
-- loaders, and the Trainer runs the epochs, on the GPU with num_gpus.
local U = torch._util

-- nn.Module's new, with keywords spread for the class's own __init.
local function keyword_new(c, ...)
  local self = setmetatable({}, c.__meta)
  U.init_module(self)
  self:__init(U.spread_keywords(c.__name, c.__init, ...))
  return self
end

-- ---- Module: an nn.Module with hyperparameters and a board -------------------------
local Module = nn.Module:extend('Module')
rawset(Module, '__module', 'd2l.torch')
d2l.Module = Module
Module.new = keyword_new
Module.save_hyperparameters = d2l.HyperParameters.save_hyperparameters
function Module:__init(plot_train_per_epoch, plot_valid_per_epoch)
  nn.Module.__init(self)
  plot_train_per_epoch, plot_valid_per_epoch = plot_train_per_epoch or 2, plot_valid_per_epoch or 1
  self:save_hyperparameters()
  self.board = d2l.ProgressBoard()
end

function Module:loss(y_hat, y) error('NotImplementedError', 0) end
function Module:forward(X)
  assert(rawget(self, 'net') ~= nil or self.net ~= nil, 'Neural network is defined')
  return self.net(X)
end

-- A point of `key` (a loss, an accuracy) on the board: train points at
-- fractions of an epoch, validation points at its end.
function Module:plot(key, value, train)
  local trainer = self.trainer
  assert(trainer ~= nil, 'Trainer is not inited')
  local board = self.board or d2l.ProgressBoard()
  self.board = board
  board.xlabel = 'epoch'
  local x, n
  if train then
    x = trainer.train_batch_idx / trainer.num_train_batches
    n = trainer.num_train_batches / (self.plot_train_per_epoch or 2)
  else
    x = trainer.epoch + 1
    n = trainer.num_val_batches / (self.plot_valid_per_epoch or 1)
  end
  if U.is_tensor(value) then value = value:detach():cpu():item() end
  board:draw(x, value, (train and 'train_' or 'val_') .. key, math.max(1, math.floor(n)))
end

-- batch: {inputs..., labels}
local function split_batch(batch)
  return table.unpack(batch, 1, #batch - 1)
end
function Module:training_step(batch)
  local l = self:loss(self(split_batch(batch)), batch[#batch])
  self:plot('loss', l, true)
  return l
end
function Module:validation_step(batch)
  local l = self:loss(self(split_batch(batch)), batch[#batch])
  self:plot('loss', l, false)
end
function Module:configure_optimizers() return torch.optim.SGD(self:parameters(), {lr = self.lr}) end
-- Lazy layers take their shapes from a first forward; then init is applied.
function Module:apply_init(inputs, init)
  self:forward(table.unpack(inputs))
  if init ~= nil then self.net:apply(init) end
end

-- ---- DataModule ---------------------------------------------------------------
local DataModule = d2l.HyperParameters:extend('DataModule')
rawset(DataModule, '__module', 'd2l.torch')
d2l.DataModule = DataModule
DataModule.save_hyperparameters = d2l.HyperParameters.save_hyperparameters
function DataModule:__init(root, num_workers)
  root, num_workers = root or '../data', num_workers or 4
  self:save_hyperparameters()
end
function DataModule:get_dataloader(train) error('NotImplementedError', 0) end
function DataModule:train_dataloader() return self:get_dataloader(true) end
function DataModule:val_dataloader() return self:get_dataloader(false) end
-- indices: a slice string ('0:1000') or nil for all rows.
function DataModule:get_tensorloader(tensors, train, indices)
  local parts = {}
  for i, t in ipairs(tensors) do parts[i] = indices and t[indices] or t end
  local dataset = torch.utils.data.TensorDataset(table.unpack(parts))
  return torch.utils.data.DataLoader(dataset, {batch_size = self.batch_size, shuffle = train})
end

-- ---- Trainer --------------------------------------------------------------------
local Trainer = d2l.HyperParameters:extend('Trainer')
rawset(Trainer, '__module', 'd2l.torch')
d2l.Trainer = Trainer
Trainer.save_hyperparameters = d2l.HyperParameters.save_hyperparameters
function Trainer:__init(max_epochs, num_gpus, gradient_clip_val)
  num_gpus, gradient_clip_val = num_gpus or 0, gradient_clip_val or 0
  if math.type(max_epochs) ~= 'integer' then U.type_error('Trainer', 'max_epochs', 'int', max_epochs) end
  self:save_hyperparameters()
  self.gpus = {}
  for i = 0, math.min(num_gpus, d2l.num_gpus()) - 1 do self.gpus[#self.gpus + 1] = d2l.gpu(i) end
end

function Trainer:prepare_data(data)
  self.train_dataloader = data:train_dataloader()
  self.val_dataloader = data:val_dataloader()
  self.num_train_batches = #self.train_dataloader
  self.num_val_batches = self.val_dataloader ~= nil and #self.val_dataloader or 0
end
function Trainer:prepare_model(model)
  model.trainer = self
  model.board.xlim = {0, self.max_epochs}
  if #self.gpus > 0 then model:to(self.gpus[1]) end
  self.model = model
end
function Trainer:prepare_batch(batch)
  if #self.gpus == 0 then return batch end
  local moved = {}
  for i, a in ipairs(batch) do moved[i] = a:to(self.gpus[1]) end
  return moved
end

function Trainer:fit(model, data)
  self:prepare_data(data)
  self:prepare_model(model)
  -- PyTorch's lazy parameters are in the optimizer before they have a shape
  -- and get one in place at the first call; gpulab's are made at that call,
  -- so a model with lazy layers gets its optimizer right after it (the
  -- random numbers are drawn in the same order: no optimizer draws any).
  self.optim = not U.has_uninitialized(model) and model:configure_optimizers() or nil
  self.epoch, self.train_batch_idx, self.val_batch_idx = 0, 0, 0
  for epoch = 0, self.max_epochs - 1 do
    self.epoch = epoch
    self:fit_epoch()
    -- the board's curves in words, a line an epoch (gpulab's: the book's
    -- only output is the board's figure, which a terminal does not show)
    local board = model.board
    if board and board.display and board.labels then print(board:epoch_line(epoch + 1)) end
  end
end

function Trainer:fit_epoch()
  self.model:train()
  for batch in self.train_dataloader do
    local loss = self.model:training_step(self:prepare_batch(batch))
    self.optim = self.optim or self.model:configure_optimizers()
    self.optim:zero_grad()
    loss:backward()
    torch.no_grad(function()
      if self.gradient_clip_val > 0 then self:clip_gradients(self.gradient_clip_val, self.model) end
      self.optim:step()
    end)
    self.train_batch_idx = self.train_batch_idx + 1
  end
  if self.val_dataloader == nil then return end
  self.model:eval()
  for batch in self.val_dataloader do
    torch.no_grad(function() self.model:validation_step(self:prepare_batch(batch)) end)
    self.val_batch_idx = self.val_batch_idx + 1
  end
end

function Trainer:clip_gradients(grad_clip_val, model)
  local params = {}
  for p in model:parameters() do if p.requires_grad then params[#params + 1] = p end end
  local total = 0
  for _, p in ipairs(params) do total = total + (p.grad ^ 2):sum() end
  local norm = torch.sqrt(total)
  if norm:item() > grad_clip_val then
    for _, p in ipairs(params) do p.grad:mul_(grad_clip_val / norm) end
  end
end

-- ---- devices --------------------------------------------------------------------
function d2l.cpu() return torch.device('cpu') end
function d2l.gpu(i) return torch.device('cuda:' .. (i or 0)) end
function d2l.num_gpus() return torch.cuda.device_count() end
