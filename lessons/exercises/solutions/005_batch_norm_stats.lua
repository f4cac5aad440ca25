-- exercise: 005_batch_norm_stats
-- A reference solution (lessons/exercises/005_batch_norm_stats.lua).

function batch_norm(X, gamma, beta, running_mean, running_var, training)
  local mean, var
  if training then
    mean = X:mean({0, 2, 3}, true)
    var = ((X - mean) ^ 2):mean({0, 2, 3}, true)
    local n = X:numel() / X:size(1)
    torch.no_grad(function()
      running_mean:mul_(0.9):add_(0.1 * mean:reshape(-1))
      running_var:mul_(0.9):add_(0.1 * var:reshape(-1) * n / (n - 1))
    end)
  else
    mean, var = running_mean:reshape(1, -1, 1, 1), running_var:reshape(1, -1, 1, 1)
  end
  local X_hat = (X - mean) / (var + 1e-5):sqrt()
  return gamma:reshape(1, -1, 1, 1) * X_hat + beta:reshape(1, -1, 1, 1)
end
