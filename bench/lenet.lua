-- d2l 7.6 LeNet on Fashion-MNIST, bench/lenet.py line for line in gpulab: the
-- same IDX files, layers, init, lr 0.9, batch 256, seed 0, so both start from the
-- same weights and see the same batches. Prints d2l's line per epoch.
-- EPOCHS (default 10) and DEVICE (default cpu) from the environment; BN=1
-- trains d2l 8.5's BNLeNet instead (batch norm after each convolution and
-- hidden dense layer, no padding, lr 1.0), as lessons/e5_batch_norm.lua does.
-- Usage: gpulab bench/lenet.lua
local root = (os.getenv('FASHION_MNIST') or '/usr/share/datasets/fashion-mnist') .. '/'
local EPOCHS = tonumber(os.getenv('EPOCHS') or '10')
local device = torch.device(os.getenv('DEVICE') or 'cpu')
local Xtr = torch._read_idx(root .. 'train-images-idx3-ubyte.gz'):float():unsqueeze(1) / 255
local ytr = torch._read_idx(root .. 'train-labels-idx1-ubyte.gz'):long()
local Xte = torch._read_idx(root .. 't10k-images-idx3-ubyte.gz'):float():unsqueeze(1) / 255
local yte = torch._read_idx(root .. 't10k-labels-idx1-ubyte.gz'):long()
torch.manual_seed(0)
local data = torch.utils.data
local train_iter = data.DataLoader(data.TensorDataset(Xtr, ytr), {batch_size = 256, shuffle = true})
local test_iter = data.DataLoader(data.TensorDataset(Xte, yte), {batch_size = 256})
local BN = os.getenv('BN') == '1'
local net
if BN then
  net = nn.Sequential(nn.LazyConv2d(6, 5), nn.LazyBatchNorm2d(), nn.Sigmoid(), nn.AvgPool2d(2, 2),
    nn.LazyConv2d(16, 5), nn.LazyBatchNorm2d(), nn.Sigmoid(), nn.AvgPool2d(2, 2), nn.Flatten(),
    nn.LazyLinear(120), nn.LazyBatchNorm1d(), nn.Sigmoid(), nn.LazyLinear(84), nn.LazyBatchNorm1d(), nn.Sigmoid(),
    nn.LazyLinear(10))
else
  net = nn.Sequential(nn.LazyConv2d(6, 5, {padding = 2}), nn.Sigmoid(), nn.AvgPool2d(2, 2),
    nn.LazyConv2d(16, 5), nn.Sigmoid(), nn.AvgPool2d(2, 2), nn.Flatten(),
    nn.LazyLinear(120), nn.Sigmoid(), nn.LazyLinear(84), nn.Sigmoid(), nn.LazyLinear(10))
end
net(torch.rand(BN and 2 or 1, 1, 28, 28))  -- batch norm in training mode needs two pictures
net:apply(function(m)
  local c = torch._util.class_of(m)
  if c == nn.Linear or c == nn.Conv2d then nn.init.xavier_uniform_(m.weight) end
end)
net:to(device)
local opt = torch.optim.SGD(net:parameters(), {lr = BN and 1.0 or 0.9})
local loss = nn.CrossEntropyLoss()
for epoch = 1, EPOCHS do
  net:train()
  local t0 = time.perf_counter()
  local L, A, N = 0, 0, 0
  for b in train_iter do
    local X, y = b[1]:to(device), b[2]:to(device)
    opt:zero_grad()
    local y_hat = net(X)
    local l = loss(y_hat, y)
    l:backward()
    opt:step()
    torch.no_grad(function()
      L = L + l:item() * X:size(0)
      A = A + y_hat:argmax(1):eq(y):sum():item()
      N = N + X:size(0)
    end)
  end
  local dt = time.perf_counter() - t0
  net:eval()
  local acc = 0
  torch.no_grad(function()
    for b in test_iter do acc = acc + net(b[1]:to(device)):argmax(1):eq(b[2]:to(device)):sum():item() end
  end)
  print(('epoch %d, loss %.3f, train acc %.3f, test acc %.3f, %.1f examples/sec on %s'):format(epoch, L / N, A / N,
    acc / yte:numel(), N / dt, tostring(device)))
  io.stdout:flush()
end
