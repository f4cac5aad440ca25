-- expect: read values back from the GPU
-- exercise: 004_train_epoch_on_gpu
function train_epoch(net, train_iter, loss, updater, device)
  net:train()
  local total = 0
  local n, batches = 0, 0
  for batch in train_iter do
    local X, y = batch[1]:to(device), batch[2]:to(device)
    updater:zero_grad()
    local l = loss(net(X), y)
    l:backward()
    updater:step()
    total = total + l:item() * y:numel()
    n = n + y:numel()
    batches = batches + 1
  end
  return total / n
end
