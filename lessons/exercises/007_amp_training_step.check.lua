-- Checker for 007_amp_training_step.lua: a net, a loss, data and a learning
-- rate drawn here; after each of the learner's steps the weights are compared
-- with the recipe's step written out with explicit casts (what autocast does,
-- so a replaced torch.autocast cannot fake it); then a batch that overflows.
-- needs: 1 GPU
local amp_step = need_function('amp_step')
if not amp_step then return end
fresh_seed()
local device = torch.device('cuda:' .. (gpus() - 1))
local n_in, n_hidden, n_out = 6 + math.random(0, 6), 12 + math.random(0, 12), 3 + math.random(0, 3)
local lr = (1 + math.random(0, 4)) / 10
local function batch() return torch.randn(32, n_in, {device = device}), torch.randint(0, n_out, {32}, {device = device}) end

-- The learner's net records the dtype its first layer gave: float16 under autocast.
local seen = {}
local Net = nn.Module:extend('CheckedNet')
function Net:__init(l1, l2)
  nn.Module.__init(self)
  self.l1, self.l2 = l1, l2
end
function Net:forward(x)
  local h = self.l1(x)
  seen.first_layer = h.dtype
  return self.l2(torch.relu(h))
end
local net = Net(nn.Linear(n_in, n_hidden), nn.Linear(n_hidden, n_out)):to(device)
local opt = torch.optim.SGD(net:parameters(), {lr = lr})
local scaler = torch.amp.GradScaler('cuda')
local loss_fn = nn.CrossEntropyLoss()

-- The recipe's step written out: float16 copies for the products, the loss in
-- float32, scaled by 65536, the float32 gradients divided by it before SGD.
local ref = {w1 = net.l1.weight:detach():clone(), b1 = net.l1.bias:detach():clone(),
             w2 = net.l2.weight:detach():clone(), b2 = net.l2.bias:detach():clone()}
for _, p in pairs(ref) do p:requires_grad_() end
local ref_opt = torch.optim.SGD({ref.w1, ref.b1, ref.w2, ref.b2}, {lr = lr})
local function ref_step(X, y)
  ref_opt:zero_grad()
  local h = nn.functional.linear(X:half(), ref.w1:half(), ref.b1:half())
  local out = nn.functional.linear(torch.relu(h), ref.w2:half(), ref.b2:half())
  local loss = nn.functional.cross_entropy(out:float(), y)
  local scaled = loss * 65536.0
  scaled:backward()
  torch.no_grad(function() for _, p in pairs(ref) do p.grad:mul_(1 / 65536) end end)
  ref_opt:step()
  return loss
end

-- How far the learner's step moved w1, against the recipe's.
local function compare(before, what)
  local moved = (net.l1.weight - before):abs():sum():item()
  local want = (ref.w1 - before):abs():sum():item()
  local err = (net.l1.weight - ref.w1):abs():max():item()
  if err ~= err then
    fail(what .. ': the weights became nan: the optimizer stepped with gradients that overflowed; scaler:step(opt) '
         .. 'skips such a step')
    return false
  end
  if err <= 1e-4 then return true end
  if want > 0 and moved > want * 1000 then
    fail(what .. ': the weights moved about ' .. math.floor(moved / want + 0.5) .. ' times too far: the optimizer read '
         .. 'the scaled gradients. Step with scaler:step(opt): it divides them by the scale first')
  elseif want > 0 and moved < want / 1000 then
    fail(what .. ': the weights hardly moved (' .. string.format('%.3g', moved / want) .. ' of a step): the gradients '
         .. 'were divided by the scale without having been scaled. Backward through scaler:scale(loss):backward()')
  else
    fail(what .. (': the weights differ from the recipe\'s by up to %.3g'):format(err)
         .. (what:find('second') and ': zero the gradients (opt:zero_grad()) at the start of each step, or they add up'
             or ': check the order: zero_grad, autocast forward and loss, scaled backward, scaler:step, scaler:update'))
  end
  return false
end

-- ok, loss: ok false after a failure (recorded)
local function run(X, y)
  local ok, loss = pcall(amp_step, net, loss_fn, opt, scaler, X, y)
  if not ok then
    local e = first_line(loss)
    if e:find('No inf checks were recorded', 1, true) then
      fail('scaler:update() found no step of the scaler\'s: step with scaler:step(opt) (it unscales the gradients and '
           .. 'skips a step that overflowed), not opt:step()')
    elseif e:find('_scale is None', 1, true) then
      fail('the scaler has not scaled anything: backward through scaler:scale(loss):backward(), so that small '
           .. 'gradients survive float16')
    else
      fail('amp_step(net, loss_fn, opt, scaler, X, y) raised: ' .. e)
    end
  end
  return ok, loss
end

-- step 1
local X, y = batch()
local before = net.l1.weight:detach():clone()
seen.first_layer = nil
local ran, loss = run(X, y)
if not ran then return end
if not check(seen.first_layer == torch.float16, 'the forward pass ran in ' .. tostring(seen.first_layer)
             .. ', not float16: run net(X) inside torch.autocast(\'cuda\', function() ... end)') then return end
if not check(torch.is_tensor(loss), 'amp_step should return the loss (a tensor), it returned ' .. show(loss)) then return end
if not check(loss.dtype == torch.float32, 'the loss is ' .. tostring(loss.dtype) .. ': compute it inside the autocast '
             .. 'region too, where the loss runs in float32') then return end
local want_loss = ref_step(X, y)
if not check(math.abs(loss:item() - want_loss:item()) < 1e-4, ('the loss returned is %.5f, the batch\'s is %.5f: return '
             .. 'the loss of this step'):format(loss:item(), want_loss:item())) then return end
if not compare(before, 'after the first step') then return end
if not check(scaler:_get_growth_tracker() == 1, 'after a good step the scaler counted ' .. scaler:_get_growth_tracker()
             .. ' good steps, not 1: call scaler:update() once, after scaler:step(opt)') then return end
-- step 2: another batch, and stale gradients left in .grad (as a step
-- without zero_grad would find the last step's): amp_step must clear them
X, y = batch()
before = net.l1.weight:detach():clone()
torch.no_grad(function() for _, p in ipairs(net:parameters()) do p.grad:fill_(65536) end end)
if not run(X, y) then return end
ref_step(X, y)
if not compare(before, 'after a second step') then return end
-- step 3: a batch that overflows is skipped, and the scale halves
X = batch()
X[{0, 0}] = math.huge
before = net.l1.weight:detach():clone()
local scale = scaler:get_scale()
if not run(X, y) then return end
if not check(torch.equal(before, net.l1.weight), 'a batch whose gradients overflowed changed the weights: step with '
             .. 'scaler:step(opt), which skips such a step') then return end
check(scaler:get_scale() == scale / 2, ('after an overflow the scale should halve (%g to %g); it is %g: call '
      .. 'scaler:update() after the step'):format(scale, scale / 2, scaler:get_scale()))
