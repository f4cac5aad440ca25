-- Checker for 004_scratch_model_on_gpu.lua: the learner's class is built
-- with sizes and rates drawn here, its parameters and device move are read,
-- and a Trainer on the last GPU must recover weights drawn here too.
-- needs: 1 GPU
local Model = rawget(_G, 'LinearRegressionScratch')
if type(Model) ~= 'table' or type(Model.new) ~= 'function' then
  fail('`LinearRegressionScratch` is missing: keep the class from the exercise (d2l.Module:extend)')
  return
end
fresh_seed()
local n_in = 3 + math.random(0, 3)
local lr = (2 + math.random(0, 4)) / 100
local ok, model = pcall(Model, n_in, {lr = lr})
if not ok then fail('LinearRegressionScratch(' .. n_in .. ', {lr = ' .. lr .. '}) raised: ' .. first_line(model)) return end
if not check(model.lr == lr, ('model.lr is %s, not the lr it was made with (%s): call self:save_hyperparameters() in __init')
             :format(tostring(model.lr), lr)) then return end
local params = model:parameters()
if #params ~= 2 then
  fail(('model:parameters() holds %d tensors, not 2 (w and b): plain tensor fields are not the module\'s; '
        .. 'make them nn.Parameter(...)'):format(#params))
  return
end
local w, b = model.w, model.b
if not check(torch.is_tensor(w) and tostring(w.shape) == ('torch.Size([%d, 1])'):format(n_in),
             'w should have shape (num_inputs, 1) = (' .. n_in .. ', 1), it is ' .. show(w and w.shape)) then return end
if not check(torch.is_tensor(b) and b:numel() == 1 and b:abs():sum():item() == 0, 'b should be one zero, it is ' .. show(b)) then
  return
end
-- N(0, sigma^2): a large sigma makes the spread visible
local wide = Model(400, {lr = lr, sigma = 2})
local std = wide.w:std():item()
if not check(std > 1.6 and std < 2.4, ('with sigma = 2 the weights should spread as N(0, 4); their std is %.3f (use sigma)')
             :format(std)) then return end
local device = torch.device('cuda:' .. (gpus() - 1))
model:to(device)
if not check(model.w.device == device and model.b.device == device,
             ('model:to(%s) left w on %s and b on %s: register them with the module'):format(tostring(device),
             tostring(model.w.device), tostring(model.b.device))) then return end
-- one step by hand: both parameters need a gradient
local probe = Model(n_in, {lr = lr})
local okl, l = pcall(function()
  return probe:loss(probe(torch.randn(4, n_in)), torch.randn(4, 1))
end)
if not okl then fail('loss(model(X), y) raised: ' .. first_line(l)) return end
if not check(torch.is_tensor(l) and l:numel() == 1, 'loss(y_hat, y) should be one number (a 0-d tensor), it is ' .. show(l)) then
  return
end
local yh, yt = torch.randn(5, 1), torch.randn(5, 1)
local want, got = ((yh - yt) ^ 2 / 2):mean():item(), probe:loss(yh, yt)
if not check(torch.is_tensor(got) and math.abs(got:item() - want) < 1e-5,
             ('loss(y_hat, y) should be the mean of (y_hat - y)^2 / 2 over the batch: %.5f for five examples drawn here, '
              .. 'not %s'):format(want, show(got))) then return end
l:backward()
if not check(probe.w.grad ~= nil and probe.b.grad ~= nil, 'after backward, '
             .. (probe.w.grad == nil and 'w' or 'b') .. ' has no gradient: forward must use both (X w + b)') then return end
-- training: a Trainer on the last GPU recovers w and b drawn here
local true_w = torch.randn(n_in)
local true_b = math.random(-30, 30) / 10
local data = d2l.SyntheticRegressionData(true_w, true_b, {num_train = 512, num_val = 64, batch_size = 32})
model = Model(n_in, {lr = 0.05})
model.board.display = false
local trainer = d2l.Trainer{max_epochs = 8, num_gpus = 1}
trainer.gpus = {device}
local print0 = print
print = function() end
local fitted, err = pcall(trainer.fit, trainer, model, data)
print = print0
if not fitted then fail('trainer:fit(model, data) raised: ' .. first_line(err)) return end
if not check(model.w.device == device, 'after fit, w is on ' .. tostring(model.w.device) .. ', not ' .. tostring(device)) then
  return
end
local w_err = (true_w - model.w:detach():reshape(-1):cpu()):abs():max():item()
local b_err = math.abs(true_b - model.b:detach():cpu():item())
check(w_err < 0.05 and b_err < 0.05, ('after 8 epochs the learnt w and b are off by %.3f and %.3f (want < 0.05): '
      .. 'check forward (X w + b), the loss and configure_optimizers (over w and b, rate self.lr)'):format(w_err, b_err))
