-- expect: a Lua loop over the rows
-- exercise: 004_softmax_cross_entropy
function softmax(X)
  local rows = {}
  for i = 0, X.shape[0] - 1 do
    local r = (X[i] - X[i]:max()):exp()
    rows[#rows + 1] = r / r:sum()
  end
  return torch.stack(rows)
end
function cross_entropy(y_hat, y)
  local n, q = y_hat:size(0), y_hat:size(1)
  local picked = y_hat:reshape(-1)[torch.arange(n, {device = y_hat.device}) * q + y]
  return -picked:log()
end
