-- Checker for 005_batch_norm_stats.lua: fresh sizes and values on the last
-- GPU; each output against torch's batch_norm on the CPU, the running
-- statistics after two training steps, then evaluation mode; on the inputs'
-- device, without reading values back to the host.
-- needs: 1 GPU
local batch_norm = need_function('batch_norm')
if not batch_norm then return end
fresh_seed()
local F = nn.functional
local dev = 'cuda:' .. (gpus() - 1)
local N, C, H, W = 4 + math.random(0, 8), 2 + math.random(0, 4), 3 + math.random(0, 3), 3 + math.random(0, 3)
local function err(a, b) return (a:detach():cpu():double() - b:detach():cpu():double()):abs():max():item() end
local gamma, beta = (torch.rand(C) + 0.5):to(dev), torch.randn(C):to(dev)
local rm, rv = (torch.randn(C) * 0.1):to(dev), (torch.rand(C) + 0.5):to(dev)
local ref_rm, ref_rv = rm:cpu():clone(), rv:cpu():clone()  -- torch's own, updated by F.batch_norm

-- The exercise is the formula: PyTorch's own batch norm (F.batch_norm, which
-- nn.BatchNorm2d calls) would pass every comparison below, so it is refused.
local LIBRARY = {{F, 'batch_norm'}, {torch, 'batch_norm'}}

-- One call, traced: nil (and a failure) unless it returns a tensor of X's
-- shape on dev without host waits or work on the CPU.
local function run(what, X, training)
  local library, trace, ok, Y = watching(LIBRARY, traced, batch_norm, X, gamma, beta, rm, rv, training)
  if #library > 0 then
    fail(what .. ' called F.batch_norm (or nn.BatchNorm2d, which calls it): write the formula with tensor ops '
         .. '(mean, subtraction, sqrt), as the lesson\'s first cell does')
    return nil
  end
  if not ok then fail(what .. ' raised an error: ' .. first_line(Y)) return nil end
  if not torch.is_tensor(Y) then fail(what .. ' should return a tensor, not ' .. type(Y)) return nil end
  if tostring(Y.device) ~= dev then
    fail(what .. ' returned a tensor on ' .. tostring(Y.device) .. ' for inputs on ' .. dev
         .. ': compute on the inputs\' device (tensor ops keep it)')
    return nil
  end
  local reads = syncs(trace, 'item') + syncs(trace, 'tolist') + syncs(trace, 'print') + syncs(trace, 'cpu')
  if reads > 0 then
    fail(what .. ' read values back to the host ' .. reads .. ' times (:item(), :tolist(), :cpu() or printing), each a '
         .. 'wait for the GPU: whole-tensor ops (mean over {0, 2, 3}, mul_, add_) stay queued on it')
    return nil
  end
  if ops(trace, nil, 'cpu') > 0 then
    fail('part of ' .. what .. ' ran on the CPU: keep every step on the inputs\' device')
    return nil
  end
  if tostring(Y.shape) ~= tostring(X.shape) then
    fail(what .. ' returned shape ' .. tostring(Y.shape):match('%[.*%]') .. ' for X of shape '
         .. tostring(X.shape):match('%[.*%]') .. ': return gamma * X_hat + beta, X\'s shape')
    return nil
  end
  return Y
end

for step = 1, 2 do
  local X = (torch.randn(N, C, H, W) * (1 + step) + step):to(dev)
  local Xc = X:cpu()
  local old_rm, old_rv = rm:cpu():clone(), rv:cpu():clone()
  local want = F.batch_norm(Xc, ref_rm, ref_rv, gamma:cpu(), beta:cpu(), true, 0.1, 1e-5)
  local Y = run('batch_norm(X, ..., true)', X, true)
  if Y == nil then return end
  if err(Y, want) > 1e-4 then
    local m, vu = Xc:mean({0, 2, 3}, true), Xc:var({0, 2, 3}, {keepdim = true})
    local unbiased = gamma:cpu():reshape(1, -1, 1, 1) * (Xc - m) / (vu + 1e-5):sqrt() + beta:cpu():reshape(1, -1, 1, 1)
    fail('in training the output differs from nn.BatchNorm2d\'s by up to ' .. string.format('%.3g', err(Y, want))
         .. (err(Y, unbiased) < 1e-4 and ': normalise by the BIASED variance (divided by n), as the layer does'
             or ': normalise by the batch\'s mean and biased variance over dimensions 0, 2 and 3, then gamma * X_hat'
             .. ' + beta, gamma and beta reshaped to [1, C, 1, 1]'))
    return
  end
  if err(rm, old_rm) == 0 and err(rv, old_rv) == 0 then
    fail('running_mean and running_var did not change in training: update them in place '
         .. '(running_mean:mul_(0.9):add_(...)); `running_mean = ...` only rebinds your local name')
    return
  end
  local n = N * H * W
  local bmean, bvar = Xc:mean({0, 2, 3}), Xc:var({0, 2, 3}, {correction = 0})
  if err(rm, ref_rm) > 1e-5 then
    if err(rm, old_rm * 0.1 + bmean * 0.9) < 1e-5 then
      fail('running_mean moved 0.9 of the way to the batch\'s mean: PyTorch\'s momentum 0.1 is the NEW batch\'s '
           .. 'weight, running = 0.9 * running + 0.1 * batch (d2l\'s scratch code names the 0.9 momentum)')
    elseif err(rm, bmean) < 1e-5 then
      fail('running_mean became the batch\'s mean: move it a tenth of the way, 0.9 * running + 0.1 * batch')
    else
      fail('after training step ' .. step .. ' running_mean is ' .. show(rm:cpu()) .. '; nn.BatchNorm2d\'s is '
           .. show(ref_rm))
    end
    return
  end
  if err(rv, ref_rv) > 1e-4 then
    if err(rv, old_rv * 0.9 + bvar * 0.1) < 1e-5 then
      fail('running_var took the biased variance: PyTorch keeps the UNBIASED one, the biased times n / (n - 1), '
           .. 'with n = N * H * W = ' .. n .. ' values per channel')
    elseif err(rv, old_rv * 0.1 + bvar * 0.9 * n / (n - 1)) < 1e-4 or err(rv, old_rv * 0.1 + bvar * 0.9) < 1e-4 then
      fail('running_var moved 0.9 of the way to the batch\'s variance: 0.9 * running + 0.1 * batch, as the mean')
    else
      fail('after training step ' .. step .. ' running_var is ' .. show(rv:cpu()) .. '; nn.BatchNorm2d\'s is '
           .. show(ref_rv))
    end
    return
  end
end

-- Evaluation: the running statistics, nothing updated.
local X = (torch.randn(N, C, H, W) * 3 - 1):to(dev)
local want = F.batch_norm(X:cpu(), ref_rm, ref_rv, gamma:cpu(), beta:cpu(), false)
local before_rm, before_rv = rm:cpu():clone(), rv:cpu():clone()
local Y = run('batch_norm(X, ..., false)', X, false)
if Y == nil then return end
if err(rm, before_rm) > 0 or err(rv, before_rv) > 0 then
  fail('in evaluation (training false) the running statistics changed: only training updates them')
  return
end
if err(Y, want) > 1e-4 then
  local own = F.batch_norm(X:cpu(), nil, nil, gamma:cpu(), beta:cpu(), true)
  fail(err(Y, own) < 1e-4 and 'in evaluation (training false) you normalised by the batch\'s own statistics: use '
       .. 'running_mean and running_var, so that each picture gets one answer whatever its batch'
       or 'in evaluation the output differs from nn.BatchNorm2d\'s by up to ' .. string.format('%.3g', err(Y, want))
       .. ': X_hat = (X - running_mean) / sqrt(running_var + eps), both reshaped to [1, C, 1, 1]')
end
