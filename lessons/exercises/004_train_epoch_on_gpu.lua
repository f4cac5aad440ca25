-- exercise: 004_train_epoch_on_gpu
-- Train a network for one epoch on the GPU, reading the loss back once (lesson e4)
-- train_epoch(net, train_iter, loss, updater, device) makes one pass over
-- train_iter (batches {X, y}) and returns the mean training loss per example
-- as a Lua number. d2l's train_ch6 reads each batch's loss back to the host
-- (`l * X.shape[0]` into an Accumulator), so the CPU waits for the GPU once
-- per batch. Write it so that:
--   - net is in training mode (net:train());
--   - each batch moves to `device` (the argument: the net is already there);
--   - each step zeroes the gradients, computes l = loss(net(X), y) (the mean
--     over the batch), calls l:backward() and updater:step();
--   - the running sum of the losses stays a tensor on `device`, each batch's
--     mean weighted by its size (the last batch may be smaller), and is read
--     back ONCE, at the end.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 2)

function train_epoch(net, train_iter, loss, updater, device)
  net:train()
  local total, n = 0, 0
  for X, y in train_iter do
    -- TODO: on `device`, and no :item() in the loop
    updater:zero_grad()
    local l = loss(net(X), y)
    l:backward()
    updater:step()
    total = total + l:item() * y:numel()
    n = n + y:numel()
  end
  return total / n
end

-- A quick try on random pictures (the lesson trains on Fashion-MNIST).
device = try_gpu()
net = nn.Sequential(nn.Conv2d(1, 6, 5, {padding = 2}), nn.Sigmoid(), nn.AvgPool2d(2, 2),
                    nn.Conv2d(6, 16, 5), nn.Sigmoid(), nn.AvgPool2d(2, 2), nn.Flatten(),
                    nn.Linear(400, 120), nn.Sigmoid(), nn.Linear(120, 84), nn.Sigmoid(), nn.Linear(84, 10)):to(device)
data = torch.utils.data.TensorDataset(torch.rand(300, 1, 28, 28), torch.randint(0, 10, {300}))
train_iter = torch.utils.data.DataLoader(data, {batch_size = 64, shuffle = true})
updater = torch.optim.SGD(net:parameters(), {lr = 0.9})
print(train_epoch(net, train_iter, nn.CrossEntropyLoss(), updater, device))   -- about 2.3
