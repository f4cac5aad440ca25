-- expect: the mean of the batches' losses
-- exercise: 004_train_epoch_on_gpu
function train_epoch(net, train_iter, loss, updater, device)
  net:train()
  local total = torch.tensor(0.0, {device = device})
  local n, batches = 0, 0
  for batch in train_iter do
    local X, y = batch[1]:to(device), batch[2]:to(device)
    updater:zero_grad()
    local l = loss(net(X), y)
    l:backward()
    updater:step()
    total = total + l:detach()
    n = n + y:numel()
    batches = batches + 1
  end
  return total:item() / batches
end
