-- expect: run net(X) inside torch.autocast
-- exercise: 007_amp_training_step
function amp_step(net, loss_fn, opt, scaler, X, y)
  opt:zero_grad()
  local loss = loss_fn(net(X), y)
  scaler:scale(loss):backward()
  scaler:step(opt)
  scaler:update()
  return loss
end
