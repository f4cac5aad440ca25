-- exercise: 004_scratch_model_on_gpu
-- A from-scratch model that d2l's Trainer can train on the GPU (lesson e0)
-- Lesson e0's LinearRegressionScratch keeps w and b as plain tensor fields:
-- model:to(device) does not know them, so Trainer{num_gpus=1} cannot train
-- it on the GPU. Write LinearRegressionScratch(num_inputs, lr, sigma=0.01) as
-- a d2l.Module whose w (num_inputs x 1, drawn from N(0, sigma^2)) and b (one
-- zero) are parameters of the module, so that:
--   - model:parameters() holds w and b, and model:to(device) moves them;
--   - model.lr is the learning rate (self:save_hyperparameters());
--   - forward(X) is X w + b, loss(y_hat, y) the mean of (y_hat - y)^2 / 2,
--   - configure_optimizers() returns an optimizer over w and b with rate lr.
-- The checker trains it with d2l.Trainer{num_gpus=1} on data it draws.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 2)

LinearRegressionScratch = d2l.Module:extend('LinearRegressionScratch')

function LinearRegressionScratch:__init(num_inputs, lr, sigma)
  d2l.Module.__init(self)
  sigma = sigma or 0.01
  self:save_hyperparameters()
  -- TODO: w and b, registered with the module (nn.Parameter)
  self.w = torch.normal(0, sigma, {num_inputs, 1}, {requires_grad = true})
  self.b = torch.zeros(1, {requires_grad = true})
end

function LinearRegressionScratch:forward(X) return X:matmul(self.w) + self.b end
function LinearRegressionScratch:loss(y_hat, y) return ((y_hat - y) ^ 2 / 2):mean() end
function LinearRegressionScratch:configure_optimizers() return d2l.SGD({self.w, self.b}, self.lr) end

model = LinearRegressionScratch(2, {lr = 0.03})
data = d2l.SyntheticRegressionData{w = torch.tensor({2, -3.4}), b = 4.2}
d2l.Trainer{max_epochs = 3, num_gpus = 1}:fit(model, data)
print(model.w, model.b)
