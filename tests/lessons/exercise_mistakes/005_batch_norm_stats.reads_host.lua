-- expect: read values back to the host
-- exercise: 005_batch_norm_stats
function batch_norm(X, gamma, beta, running_mean, running_var, training)
  local mean, var
  if training then
    mean = X:mean({0, 2, 3}, true)
    var = ((X - mean) ^ 2):mean({0, 2, 3}, true)
    local n = X:numel() / X:size(1)
    for c = 0, X:size(1) - 1 do
      running_mean[c] = 0.9 * running_mean[c]:item() + 0.1 * mean:reshape(-1)[c]:item()
      running_var[c] = 0.9 * running_var[c]:item() + 0.1 * var:reshape(-1)[c]:item() * n / (n - 1)
    end
  else
    mean, var = running_mean:reshape(1, -1, 1, 1), running_var:reshape(1, -1, 1, 1)
  end
  return gamma:reshape(1, -1, 1, 1) * (X - mean) / (var + 1e-5):sqrt() + beta:reshape(1, -1, 1, 1)
end
