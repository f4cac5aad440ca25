-- exercise: 005_batch_norm_stats
-- Batch norm by hand, with PyTorch's running statistics (lesson e5)
-- batch_norm(X, gamma, beta, running_mean, running_var, training) normalises
-- X of shape [N, C, H, W] channel by channel, as nn.BatchNorm2d does, with
-- eps = 1e-5, then returns gamma * X_hat + beta (gamma and beta: C values).
--   training true: X_hat = (X - mean) / sqrt(var + eps), the batch's mean and
--     BIASED variance (divided by n) over N, H and W. It also updates
--     running_mean and running_var IN PLACE, PyTorch's way (momentum 0.1):
--     running = 0.9 * running + 0.1 * batch, running_var taking the UNBIASED
--     variance (divided by n - 1). d2l's scratch code names this momentum 0.9.
--   training false: X_hat from running_mean and running_var; nothing updated.
-- Tensor ops only, on the inputs' device: no :item(), :tolist() or :cpu(),
-- and no Lua loop over the channels.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 1)

function batch_norm(X, gamma, beta, running_mean, running_var, training)
  local mean = X:mean({0, 2, 3}, true)
  local var = ((X - mean) ^ 2):mean({0, 2, 3}, true)
  -- TODO: evaluation mode, and the running statistics
  local X_hat = (X - mean) / (var + 1e-5):sqrt()
  return gamma:reshape(1, -1, 1, 1) * X_hat + beta:reshape(1, -1, 1, 1)
end

device = try_gpu()
X = torch.randn(16, 3, 5, 5, {device = device}) * 2 + 1
gamma, beta = torch.ones(3, {device = device}), torch.zeros(3, {device = device})
running_mean, running_var = torch.zeros(3, {device = device}), torch.ones(3, {device = device})
Y = batch_norm(X, gamma, beta, running_mean, running_var, true)
print(Y:mean({0, 2, 3}), running_mean, running_var)
