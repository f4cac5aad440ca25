-- Checker for 004_softmax_cross_entropy.lua: fresh scores on the last GPU,
-- compared with torch's softmax; rows with huge and with very different
-- scores; one loss per example, on the inputs' device, without host waits.
-- needs: 1 GPU
local softmax, cross_entropy = need_function('softmax'), need_function('cross_entropy')
if not (softmax and cross_entropy) then return end
fresh_seed()
local dev = 'cuda:' .. (gpus() - 1)
local n, q = 5 + math.random(0, 4), 3 + math.random(0, 5)

-- PyTorch's own softmax and losses would pass every comparison below: the
-- exercise is to write them, so a call to one is refused.
local F = nn.functional
local LIBRARY = {{torch, 'softmax'}, {torch, 'log_softmax'}, {torch.Tensor, 'softmax'}, {torch.Tensor, 'log_softmax'},
                 {torch, 'logsumexp'}, {torch.Tensor, 'logsumexp'},
                 {F, 'softmax'}, {F, 'log_softmax'}, {F, 'cross_entropy'}, {F, 'nll_loss'},
                 {nn.Softmax, 'forward'}, {nn.LogSoftmax, 'forward'}, {nn.CrossEntropyLoss, 'forward'}, {nn.NLLLoss, 'forward'}}

-- Runs f on the inputs; nil and a failure unless it returns a tensor on dev of `shape`.
local function run(name, f, shape, ...)
  local library, trace, ok, out = watching(LIBRARY, traced, f, ...)
  if #library > 0 then
    fail(name .. ' called PyTorch\'s ' .. table.concat(library, ', ') .. ': the exercise is to write it yourself, '
         .. 'from exp, max, sum, log and indexing (the lesson\'s cells show how)')
    return nil
  end
  if not ok then fail(name .. ' raised an error: ' .. first_line(out)) return nil end
  if not torch.is_tensor(out) then fail(name .. ' should return a tensor, not ' .. type(out)) return nil end
  if tostring(out.device) ~= dev then
    fail(name .. ' returned a tensor on ' .. tostring(out.device) .. ' for inputs on ' .. dev
         .. ': compute on the inputs\' device (tensor ops keep it; :cpu() and torch.tensor(...) leave it)')
    return nil
  end
  local reads = syncs(trace, 'item') + syncs(trace, 'tolist') + syncs(trace, 'print')
  if reads > 0 then
    fail(name .. ' read values back to the host ' .. reads .. ' times (:item(), :tolist() or printing), each a wait '
         .. 'for the GPU: use tensor ops on whole rows, which stay queued on the GPU')
    return nil
  end
  if ops(trace, nil, 'cpu') > 0 then
    fail('part of ' .. name .. ' ran on the CPU (' .. ops(trace, nil, 'cpu') .. ' ops): keep the work on the inputs\' '
         .. 'device, and make helper tensors there ({device = X.device})')
    return nil
  end
  if tostring(out.shape) ~= shape then
    local msg = name .. ' returned shape ' .. tostring(out.shape):match('%[.*%]') .. ', expected ' .. shape:match('%[.*%]')
    if out:dim() == 0 then msg = msg .. ': return one loss per example, not their mean or sum (the training loop does that)' end
    fail(msg)
    return nil
  end
  return out
end
local function max_error(got, want) return (got:cpu():double() - want:cpu():double()):abs():max():item() end

-- Whole-tensor ops run once for all rows; a Lua loop over the rows runs its
-- ops once per row: twice the rows must not take more ops.
local function per_row_ops(name, f, make)
  local counts = {}
  for i, rows in ipairs({3, 6}) do
    local trace, ok = traced(f, make(rows))
    if not ok then return false end
    counts[i] = ops(trace)
  end
  if counts[2] <= counts[1] then return false end
  fail(name .. ' ran ' .. counts[1] .. ' ops for 3 rows and ' .. counts[2] .. ' for 6: a Lua loop over the rows, '
       .. 'one small GPU launch per row. Use whole-tensor ops (X:max(1, true), exp, sum(1, true), indexing with '
       .. 'tensors), which do every row at once')
  return true
end

-- softmax: random scores, then huge ones, then rows far apart.
local X = torch.randn{n, q, device = dev} * 3
local P = run('softmax(X)', softmax, tostring(X.shape), X)
if P == nil then return end
if max_error(P, X:cpu():softmax(1)) > 1e-5 then
  local cols = max_error(P, X:cpu():softmax(0)) < 1e-5
  fail('softmax(X) is wrong' .. (cols and ': its COLUMNS sum to 1; each ROW should (sum over dim 1, keepdim: '
       .. 'X_exp:sum(1, true))' or ' (compare with X:softmax(1) on a few rows)'))
  return
end
local big = torch.tensor({{100.0, 0.0, -100.0}, {100.0, 99.0, 0.0}}, {device = dev})
P = run('softmax of scores like 100', softmax, 'torch.Size([2, 3])', big)
if P == nil then return end
if not P:isfinite():all():item() or max_error(P, big:cpu():softmax(1)) > 1e-5 then
  fail('softmax of the scores {100, 0, -100} gives ' .. show(P:cpu()[0]) .. ': exp(100) overflows float32. '
       .. 'Subtract each row\'s largest score before exp (X - X:max(1, true)): softmax does not change')
  return
end
local apart = torch.tensor({{500.0, 499.0}, {-500.0, -499.0}}, {device = dev})
P = run('softmax of rows {500, 499} and {-500, -499}', softmax, 'torch.Size([2, 2])', apart)
if P == nil then return end
if not P:isfinite():all():item() or max_error(P, apart:cpu():softmax(1)) > 1e-5 then
  fail('softmax of the rows {500, 499} and {-500, -499} gives ' .. show(P:cpu()) .. ': subtract EACH ROW\'s own '
       .. 'largest score (X:max(1, true)), not the largest of the whole matrix: exp(-1000) is 0 in float32')
  return
end
if per_row_ops('softmax(X)', softmax, function(rows) return torch.randn{rows, q, device = dev} end) then return end

-- cross_entropy: probabilities from torch, labels at random (0-based).
local probs = (torch.randn{n, q, device = dev}):softmax(1)
local y = torch.randint(0, q, {n}, {device = dev})
local L = run('cross_entropy(y_hat, y)', cross_entropy, 'torch.Size([' .. n .. '])', probs, y)
if L == nil then return end
local p, labels = probs:cpu():tolist(), y:cpu():tolist()
local want, off = {}, {}
for i = 1, n do
  want[i] = -math.log(p[i][labels[i] + 1])
  off[i] = -math.log(p[i][labels[i] % q + 1 + (labels[i] + 1 < q and 1 or 1 - q)] or 1)
end
if max_error(L, torch.tensor(want)) > 1e-4 then
  local msg = 'cross_entropy is wrong: for y_hat row ' .. show(probs:cpu()[0]) .. ' and label ' .. labels[1]
              .. ' the loss is ' .. string.format('%.4f', want[1]) .. ', yours ' .. string.format('%.4f', L:cpu()[0]:item())
  if max_error(L, torch.tensor(off)) < 1e-4 then
    msg = msg .. ': you took the probability of label y + 1; labels count from 0, like the columns'
  elseif max_error(L:neg(), torch.tensor(want)) < 1e-4 then
    msg = msg .. ': the loss is MINUS the log of the probability'
  end
  fail(msg)
end
if per_row_ops('cross_entropy(y_hat, y)', function(yy) return cross_entropy(yy[1], yy[2]) end, function(rows)
  return {torch.randn{rows, q, device = dev}:softmax(1), torch.randint(0, q, {rows}, {device = dev})}
end) then return end
