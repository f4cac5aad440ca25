-- exercise: 004_softmax_cross_entropy
-- Softmax and cross-entropy that stay on the GPU and never overflow (lessons e1, e2)
-- softmax(X) turns each row of scores X (n rows, q columns) into probabilities.
-- Written as in lesson e1, exp(X) / (sum of exp in the row), a score of 100
-- overflows float32 (exp(100) is inf) and the row becomes nan. Subtract each
-- row's own largest score first: the result is the same, and nothing overflows.
-- cross_entropy(y_hat, y) returns ONE loss PER EXAMPLE (n values): -log of the
-- probability y_hat[i] gives to the label y[i] (labels count from 0).
-- Both must work on the device their inputs are on, with tensor ops only: no
-- :item(), :tolist() or :cpu(), no Lua loop over the rows.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 1)

function softmax(X)
  local X_exp = X:exp()   -- TODO: overflows for large scores
  return X_exp / X_exp:sum(1, true)
end

function cross_entropy(y_hat, y)
  -- TODO: -log of y_hat[i, y[i]] for every row i
  return y_hat
end

scores = torch.tensor({{100.0, 0.0, -100.0}, {1.0, 2.0, 3.0}}, {device = try_gpu()})
print(softmax(scores))
print(cross_entropy(softmax(scores), torch.tensor({0, 2}, {device = try_gpu()})))
