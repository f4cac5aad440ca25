-- expect: called PyTorch's logsumexp
-- exercise: 004_softmax_cross_entropy
function softmax(X)
  return (X - X:logsumexp(1, true)):exp()
end
function cross_entropy(y_hat, y)
  local n, q = y_hat:size(0), y_hat:size(1)
  local picked = y_hat:reshape(-1)[torch.arange(n, {device = y_hat.device}) * q + y]
  return -picked:log()
end
