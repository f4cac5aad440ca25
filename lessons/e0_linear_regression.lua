-- Dive into Deep Learning (d2l.ai) § 3.2–3.5: Linear regression with d2l's Module, DataModule and Trainer
-- needs: 1 gpu
-- %% Three objects
-- From chapter 3 on, the book writes every experiment with three objects:
-- a d2l.Module (the model: its forward, its loss, its optimizer), a
-- d2l.DataModule (the data: a loader for training, one for validation) and a
-- d2l.Trainer, whose fit(model, data) runs the epochs. Each is a class; a
-- model of our own extends one (`d2l.Module:extend('Name')`) and its __init
-- calls the parent's first, as Python's super().__init__().
-- save_hyperparameters() turns the __init's arguments into fields: lr below
-- is self.lr without writing `self.lr = lr`. (A trailing `;` keeps a
-- cell's last value from being shown, as in a notebook: torch.manual_seed
-- returns the generator it seeded.)
torch.manual_seed(0);
-- %% The data
-- y = X w + b + noise: 1000 examples to train on, 1000 to validate, drawn
-- once. Python's keywords are a trailing table here: w=..., b=4.2.
data = d2l.SyntheticRegressionData{w = torch.tensor({2, -3.4}), b = 4.2}
X, y = next(iter(data:train_dataloader()))
print('X shape:', X.shape, 'y shape:', y.shape)
-- %% The model, from scratch
-- Weights drawn from N(0, 0.01^2), a bias of 0, the squared loss, and
-- minibatch SGD written out (d2l.SGD: param -= lr * grad). A plain tensor
-- field is not a parameter of the module: the optimizer is handed w and b.
LinearRegressionScratch = d2l.Module:extend('LinearRegressionScratch')
function LinearRegressionScratch:__init(num_inputs, lr, sigma)
  d2l.Module.__init(self)
  sigma = sigma or 0.01
  self:save_hyperparameters()
  self.w = torch.normal(0, sigma, {num_inputs, 1}, {requires_grad = true})
  self.b = torch.zeros(1, {requires_grad = true})
end
function LinearRegressionScratch:forward(X) return X:matmul(self.w) + self.b end
function LinearRegressionScratch:loss(y_hat, y) return ((y_hat - y) ^ 2 / 2):mean() end
function LinearRegressionScratch:configure_optimizers() return d2l.SGD({self.w, self.b}, self.lr) end
model = LinearRegressionScratch(2, {lr = 0.03})
print(model.lr, model.w.shape)
-- %% Training
-- As the book does here, on the CPU: Trainer(max_epochs=3). The model's
-- board plots the training loss twice an epoch and the validation loss once:
-- in a notebook as a figure redrawn while it trains; here the Trainer prints
-- each curve's last point an epoch, and model.board:show() would write the
-- figure (figure-N.png) and print its curves as bars.
trainer = d2l.Trainer{max_epochs = 3}
trainer:fit(model, data)
-- %% How close did it get?
-- The errors of the learnt w and b against the w and b that made the data.
-- No gradient is needed to look: torch.no_grad.
torch.no_grad(function()
  print('error in estimating w:', data.w - model.w:reshape(data.w.shape))
  print('error in estimating b:', data.b - model.b)
end)
-- %% Why this model cannot go to the GPU
-- model:to(device) moves what the module knows: its registered parameters
-- and buffers. w and b are plain tensor fields, so they stay where they
-- are, and the first product on the GPU mixes devices (PyTorch does the
-- same). nn.Parameter, or layers that hold their own (nn.Linear), register
-- them: exercise 004_scratch_model_on_gpu makes this model GPU-ready.
print(#model:parameters())
model:to(try_gpu())
print(model.w.device)
-- %% The same, concise, on the GPU
-- d2l.LinearRegression is nn.LazyLinear(1), nn.MSELoss and torch.optim.SGD.
-- A lazy layer learns its input size at its first call: before it, its
-- weight is an UninitializedParameter, and the Trainer makes the optimizer
-- right after that call (gpulab makes the parameters then; PyTorch fills in
-- placeholders it had already handed to the optimizer).
-- Trainer{num_gpus=1} moves the model to cuda:0 before the first epoch and
-- each batch as it comes (prepare_batch): the data stay in host memory, as
-- they would on disk.
model = d2l.LinearRegression(0.03)
print(model.net.weight)
trainer = d2l.Trainer{max_epochs = 3, num_gpus = 1}
trainer:fit(model, data)
w, b = model:get_w_b()
print(w.device)
print('error in estimating w:', data.w - w:reshape(data.w.shape):cpu())
print('error in estimating b:', data.b - b:cpu())
