-- expect: called F.batch_norm (or nn.BatchNorm2d, which calls it)
-- exercise: 005_batch_norm_stats
function batch_norm(X, gamma, beta, running_mean, running_var, training)
  return nn.functional.batch_norm(X, running_mean, running_var, gamma, beta, training, 0.1, 1e-5)
end
