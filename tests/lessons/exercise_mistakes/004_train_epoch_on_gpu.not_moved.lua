-- expect: move each batch there
-- exercise: 004_train_epoch_on_gpu
function train_epoch(net, train_iter, loss, updater, device)
  net:train()
  local total = torch.tensor(0.0, {device = device})
  local n, batches = 0, 0
  for batch in train_iter do
    local X, y = batch[1], batch[2]
    updater:zero_grad()
    local l = loss(net(X), y)
    l:backward()
    updater:step()
    total = total + l:detach() * y:numel()
    n = n + y:numel()
    batches = batches + 1
  end
  return total:item() / n
end
