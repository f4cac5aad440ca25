-- expect: called PyTorch's nll_loss
-- exercise: 004_softmax_cross_entropy
function softmax(X)
  local X_exp = (X - X:max(1, true).values):exp()
  return X_exp / X_exp:sum(1, true)
end

function cross_entropy(y_hat, y)
  return nn.functional.nll_loss(y_hat:log(), y, {reduction = 'none'})
end
