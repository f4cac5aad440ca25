-- exercise: 007_amp_training_step
-- One mixed-precision training step, as PyTorch's AMP recipe writes it (lesson e7)
-- Write amp_step(net, loss_fn, opt, scaler, X, y): one training step of net
-- on the batch (X, y) with automatic mixed precision, on X's GPU:
--   - the gradients zeroed first;
--   - net(X) and loss_fn(output, y) inside torch.autocast('cuda', ...);
--   - backward through the scaler: scaler:scale(loss):backward();
--   - scaler:step(opt) (it skips the step when a gradient overflowed), then
--     scaler:update();
--   - it returns the loss.
-- The checker draws a net, data and a learning rate, compares your weights
-- after each step with the recipe's, and sends a batch that overflows.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 2)

function amp_step(net, loss_fn, opt, scaler, X, y)
  -- TODO: autocast for the forward pass and the loss; the scaler for backward, step and update
  opt:zero_grad()
  local loss = loss_fn(net(X), y)
  loss:backward()
  opt:step()
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
