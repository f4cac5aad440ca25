-- exercise: 007_amp_training_step
-- A reference solution: PyTorch's recipe, the `with` block as a function.
function amp_step(net, loss_fn, opt, scaler, X, y)
  opt:zero_grad()
  local loss = torch.autocast('cuda', function() return loss_fn(net(X), y) end)
  scaler:scale(loss):backward()
  scaler:step(opt)
  scaler:update()
  return loss
end

torch.manual_seed(0)
device = try_gpu()
net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 4)):to(device)
opt = torch.optim.SGD(net:parameters(), {lr = 0.5})
scaler = torch.amp.GradScaler('cuda')
X = torch.randn(256, 20, {device = device})
y = (X[':, :4'] * torch.tensor({1., -2., 3., 0.5}, {device = device})):argmax(1)
for step = 1, 20 do
  local loss = amp_step(net, nn.CrossEntropyLoss(), opt, scaler, X, y)
  if step % 5 == 0 then pyprint('step', step, ('loss %.3f'):format(loss:item()), 'scale', scaler:get_scale()) end
end
