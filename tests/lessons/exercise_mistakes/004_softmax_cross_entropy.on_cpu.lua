-- expect: ran on the CPU
-- exercise: 004_softmax_cross_entropy
function softmax(X)
  local X_exp = (X - X:max(1, true)):exp()
  return X_exp / X_exp:sum(1, true)
end
function cross_entropy(y_hat, y)
  local n, q = y_hat:size(0), y_hat:size(1)
  local picked = y_hat:cpu():reshape(-1)[torch.arange(n) * q + y:cpu()]
  return (-picked:log()):to(y_hat.device)
end
