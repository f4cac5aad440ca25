-- expect: should be the mean of (y_hat - y)^2 / 2
-- exercise: 004_scratch_model_on_gpu
LinearRegressionScratch = d2l.Module:extend('LinearRegressionScratch')

function LinearRegressionScratch:__init(num_inputs, lr, sigma)
  d2l.Module.__init(self)
  sigma = sigma or 0.01
  self:save_hyperparameters()
  self.w = nn.Parameter(torch.normal(0, sigma, {num_inputs, 1}))
  self.b = nn.Parameter(torch.zeros(1))
end

function LinearRegressionScratch:forward(X) return X:matmul(self.w) + self.b end
function LinearRegressionScratch:loss(y_hat, y) return ((y_hat - y) ^ 2 / 2):sum() end
function LinearRegressionScratch:configure_optimizers() return d2l.SGD({self.w, self.b}, self.lr) end
