-- exercise: 004_train_epoch_on_gpu
function train_epoch(net, train_iter, loss, updater, device)
  net:train()
  local total = torch.tensor(0.0, {device = device})
  local n = 0
  for X, y in train_iter do
    X, y = X:to(device), y:to(device)
    updater:zero_grad()
    local l = loss(net(X), y)
    l:backward()
    updater:step()
    total = total + l:detach() * y:numel()
    n = n + y:numel()
  end
  return total:item() / n
end
