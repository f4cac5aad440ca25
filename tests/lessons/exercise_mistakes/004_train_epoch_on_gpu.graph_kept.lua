-- expect: keeps every batch's graph alive
-- exercise: 004_train_epoch_on_gpu
function train_epoch(net, train_iter, loss, updater, device)
  net:train()
  local total, n = torch.zeros({}, {device = device}), 0
  for X, y in train_iter do
    X, y = X:to(device), y:to(device)
    updater:zero_grad()
    local l = loss(net(X), y)
    l:backward()
    updater:step()
    total = total + l * y:numel()
    n = n + y:numel()
  end
  return (total / n):item()
end
