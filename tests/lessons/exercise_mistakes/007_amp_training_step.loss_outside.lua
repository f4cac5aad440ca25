-- expect: compute it inside the autocast
-- exercise: 007_amp_training_step
function amp_step(net, loss_fn, opt, scaler, X, y)
  opt:zero_grad()
  local out = torch.autocast('cuda', function() return net(X) end)
  local loss = loss_fn(out, y)
  scaler:scale(loss):backward()
  scaler:step(opt)
  scaler:update()
  return loss
end
