-- exercise: 004_softmax_cross_entropy
-- A reference solution.
function softmax(X)
  local X_exp = (X - X:max(1, true)):exp()
  return X_exp / X_exp:sum(1, true)
end

function cross_entropy(y_hat, y)
  local n, q = y_hat:size(0), y_hat:size(1)
  local picked = y_hat:reshape(-1)[torch.arange(n, {device = y_hat.device}) * q + y]
  return -picked:log()
end
