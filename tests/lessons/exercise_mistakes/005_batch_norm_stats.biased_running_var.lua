-- expect: PyTorch keeps the UNBIASED one
-- exercise: 005_batch_norm_stats
function batch_norm(X, gamma, beta, running_mean, running_var, training)
  local mean, var
  if training then
    mean = X:mean({0, 2, 3}, true)
    var = ((X - mean) ^ 2):mean({0, 2, 3}, true)
    running_mean:mul_(0.9):add_(0.1 * mean:reshape(-1))
    running_var:mul_(0.9):add_(0.1 * var:reshape(-1))
  else
    mean, var = running_mean:reshape(1, -1, 1, 1), running_var:reshape(1, -1, 1, 1)
  end
  return gamma:reshape(1, -1, 1, 1) * (X - mean) / (var + 1e-5):sqrt() + beta:reshape(1, -1, 1, 1)
end
