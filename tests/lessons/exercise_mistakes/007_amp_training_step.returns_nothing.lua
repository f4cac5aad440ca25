-- expect: should return the loss
-- exercise: 007_amp_training_step
function amp_step(net, loss_fn, opt, scaler, X, y)
  opt:zero_grad()
  local loss = torch.autocast('cuda', function() return loss_fn(net(X), y) end)
  scaler:scale(loss):backward()
  scaler:step(opt)
  scaler:update()
end
