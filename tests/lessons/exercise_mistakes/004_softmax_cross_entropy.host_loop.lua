-- expect: read values back to the host
-- exercise: 004_softmax_cross_entropy
function softmax(X)
  local X_exp = (X - X:max(1, true)):exp()
  return X_exp / X_exp:sum(1, true)
end
function cross_entropy(y_hat, y)
  local losses = {}
  for i = 0, y_hat:size(0) - 1 do losses[i + 1] = -y_hat[i][y[i]:item()]:log() end
  return torch.stack(losses)
end
