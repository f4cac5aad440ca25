-- Checker for 004_train_epoch_on_gpu.lua: a small convolutional net on the
-- last GPU records, at each call, its mode and where its input is; a twin of
-- it, trained by d2l's steps on the same batches (a last batch smaller than
-- the others), says what the weights and the mean loss must be afterwards;
-- the trace counts the host's reads.
-- needs: 1 GPU
local train_epoch = need_function('train_epoch')
if not train_epoch then return end
fresh_seed()
local device = torch.device('cuda:' .. (gpus() - 1))
local Probe, probe = probe_net(function()
  return nn.Sequential(nn.Conv2d(1, 2, 3, {padding = 1}), nn.Sigmoid(), nn.AvgPool2d(2, 2), nn.Flatten(),
                       nn.Linear(32, 3))
end)
local batch_size = 16
local lr = 0.5
-- Data whose last batch is small (3 to 8 examples), and drawn again until the
-- mean of the batches' losses is far from the mean per example, so that
-- this mistake can never pass by chance.
local n, nbatches, X, y, loader, net, twin, expected, mean_of_means
for _ = 1, 20 do
  nbatches = 4 + math.random(0, 1)
  n = batch_size * (nbatches - 1) + 3 + math.random(0, 5)
  X, y = torch.randn(n, 1, 8, 8), torch.randint(0, 3, {n})
  loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), {batch_size = batch_size})
  local seed = math.random(1, 1000000)
  torch.manual_seed(seed)
  net = Probe():to(device)
  torch.manual_seed(seed)
  twin = Probe():to(device)
  -- d2l's steps on the twin, recording each batch's mean loss.
  local batch_losses = {}
  twin:train()
  local opt = torch.optim.SGD(twin:parameters(), {lr = lr})
  for batch in loader do
    local Xb, yb = batch[1]:to(device), batch[2]:to(device)
    opt:zero_grad()
    local l = nn.CrossEntropyLoss()(twin(Xb), yb)
    l:backward()
    opt:step()
    batch_losses[#batch_losses + 1] = {l:item(), yb:numel()}
  end
  expected, mean_of_means = 0, 0
  for _, b in ipairs(batch_losses) do
    expected = expected + b[1] * b[2] / n
    mean_of_means = mean_of_means + b[1] / #batch_losses
  end
  if math.abs(expected - mean_of_means) > 1e-3 then break end
end

net:eval()  -- train_epoch must switch it
local updater = torch.optim.SGD(net:parameters(), {lr = lr})
-- A running sum built from l itself (not l:detach()) requires grad: it holds
-- every batch's graph until the epoch ends. Its read at the end shows it.
local item, read_with_graph = torch.Tensor.item, false
rawset(torch.Tensor, 'item', function(self, ...)
  if torch.is_tensor(self) and self.requires_grad then read_with_graph = true end
  return item(self, ...)
end)
local trace, got = run_on_device('train_epoch', probe, device, train_epoch, net, loader, nn.CrossEntropyLoss(), updater,
                                 device)
rawset(torch.Tensor, 'item', item)
if not trace then return end
local calls = probe.calls
if not calls[1].training then
  fail('the net was in evaluation mode: call net:train() first (dropout and batch norm train differently)')
  return
end
if #calls ~= nbatches then
  fail(('the net ran %d times for %d batches: one forward pass per batch'):format(#calls, nbatches))
  return
end
local same = true
local mine, theirs = net:parameters(), twin:parameters()
for i = 1, #theirs do
  if not mine[i]:allclose(theirs[i], {rtol = 1e-4, atol = 1e-6}) then same = false end
end
if not same then
  fail('after the epoch the weights differ from those of d2l\'s steps on the same batches: for each batch, '
       .. 'zero the gradients (updater:zero_grad()), then l = loss(net(X), y), l:backward(), updater:step()')
  return
end
if torch.is_tensor(got) then
  fail('train_epoch returned a tensor: read the sum once at the end with :item() and return a Lua number')
  return
end
if type(got) ~= 'number' then fail('train_epoch should return a number, not ' .. type(got)) return end
if math.abs(got - expected) > 2e-5 * math.max(1, math.abs(expected)) then
  local msg = ('train_epoch returned %.5f where the mean loss per example is %.5f'):format(got, expected)
  if math.abs(got - mean_of_means) < 2e-5 * math.max(1, math.abs(mean_of_means)) then
    msg = msg .. ': that is the mean of the batches\' losses, and the last batch is smaller; '
          .. 'weight each batch\'s loss by its size (l * y:numel()) and divide by the number of examples'
  end
  fail(msg)
  return
end
-- X and y once per batch, and gpulab's cross-entropy sends its class
-- coefficients once per call (PyTorch builds them on the device).
if not check_device_traffic(trace, nbatches, 'sum', 3) then return end
check(not read_with_graph, 'the running sum was built from l itself, so it requires grad and keeps every batch\'s '
      .. 'graph alive until the epoch ends (PyTorch\'s classic memory leak): add l:detach() * y:numel() instead')
