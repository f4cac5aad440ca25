-- d2l's chapter-3 helpers (linear regression, from scratch and concise), as the
-- book's PyTorch code defines them: synthetic_data, linreg, squared_loss, sgd,
-- load_array. Lua returns several values where Python returns a tuple.
local d2l = d2l

-- X ~ N(0, 1) with #w columns, y = Xw + b + N(0, 0.01) noise, as a column.
function d2l.synthetic_data(w, b, num_examples)
  local X = torch.normal(0, 1, {num_examples, w:size(0)})
  local y = torch.matmul(X, w) + b
  y = y + torch.normal(0, 0.01, y.shape)
  return X, y:reshape(-1, 1)
end

function d2l.linreg(X, w, b) return torch.matmul(X, w) + b end

function d2l.squared_loss(y_hat, y) return (y_hat - y:reshape(y_hat.shape)) ^ 2 / 2 end

-- Minibatch stochastic gradient descent: each param -= lr * grad / batch_size.
function d2l.sgd(params, lr, batch_size)
  torch.no_grad(function()
    for _, param in ipairs(params) do
      param:sub_(lr * param.grad / batch_size)
      param.grad:zero_()
    end
  end)
end

-- A DataLoader over the tensors of data_arrays, shuffled when is_train (default).
function d2l.load_array(data_arrays, batch_size, is_train)
  if is_train == nil then is_train = true end
  local dataset = torch.utils.data.TensorDataset(table.unpack(data_arrays))
  return torch.utils.data.DataLoader(dataset, {batch_size = batch_size, shuffle = is_train})
end

local docs = {
  synthetic_data = 'd2l.synthetic_data(w, b, num_examples) -> X, y: X ~ N(0, 1) of shape (num_examples, #w),\n'
    .. 'y = Xw + b plus N(0, 0.01) noise, shaped (num_examples, 1) (d2l 3.2).',
  linreg = 'd2l.linreg(X, w, b): the linear regression model, X @ w + b.',
  squared_loss = 'd2l.squared_loss(y_hat, y): (y_hat - y)^2 / 2, elementwise, y reshaped as y_hat.',
  sgd = 'd2l.sgd(params, lr, batch_size): minibatch SGD without autograd: p -= lr * p.grad / batch_size,\n'
    .. 'then p.grad is zeroed.',
  load_array = 'd2l.load_array({features, labels}, batch_size, is_train=true): a DataLoader over a\n'
    .. 'TensorDataset of the tensors, shuffled when is_train (d2l 3.3).',
}
for name, text in pairs(docs) do torch._set_doc(d2l[name], text) end
