-- exercise: 004_scratch_model_on_gpu
-- A reference solution: nn.Parameter registers w and b with the module.
LinearRegressionScratch = d2l.Module:extend('LinearRegressionScratch')

function LinearRegressionScratch:__init(num_inputs, lr, sigma)
  d2l.Module.__init(self)
  sigma = sigma or 0.01
  self:save_hyperparameters()
  self.w = nn.Parameter(torch.normal(0, sigma, {num_inputs, 1}))
  self.b = nn.Parameter(torch.zeros(1))
end

function LinearRegressionScratch:forward(X) return X:matmul(self.w) + self.b end
function LinearRegressionScratch:loss(y_hat, y) return ((y_hat - y) ^ 2 / 2):mean() end
function LinearRegressionScratch:configure_optimizers() return d2l.SGD({self.w, self.b}, self.lr) end

model = LinearRegressionScratch(2, {lr = 0.03})
data = d2l.SyntheticRegressionData{w = torch.tensor({2, -3.4}), b = 4.2}
d2l.Trainer{max_epochs = 3, num_gpus = 1}:fit(model, data)
print(model.w, model.b)
