-- expect: cross_entropy(y_hat, y) ran
-- exercise: 004_softmax_cross_entropy
function softmax(X)
  local X_exp = (X - X:max(1, true)):exp()
  return X_exp / X_exp:sum(1, true)
end
function cross_entropy(y_hat, y)
  local out = {}
  for i = 0, y_hat:size(0) - 1 do out[#out + 1] = -y_hat[i]:index_select(0, y:narrow(0, i, 1)):log()[0] end
  return torch.stack(out)
end
