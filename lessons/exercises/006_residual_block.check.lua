-- Checker for 006_residual_block.lua: the learner's Residual is built here,
-- with channel counts and picture sizes drawn here, as a plain block and as
-- a block with the 1x1 shortcut and stride 2, on the last GPU. Its output is
-- compared, in eval mode (the batch norms then use fixed statistics), with
-- the block's formula computed from the learner's own layers; the typical
-- mistakes are named by the formula they match.
-- needs: 1 GPU
local Residual = rawget(_G, 'Residual')
if type(Residual) ~= 'table' or type(Residual.new) ~= 'function' then
  fail('`Residual` is missing: keep the class from the exercise (nn.Module:extend(\'Residual\'))')
  return
end
fresh_seed()
local F = nn.functional
local dev = 'cuda:' .. (gpus() - 1)
local N, C, H = 2 + math.random(0, 3), 2 + math.random(0, 3), 5 + math.random(0, 4)
local function err(a, b) return (a:detach():cpu():double() - b:detach():cpu():double()):abs():max():item() end

-- Builds Residual(...) on dev, its lazy layers shaped by one batch; nil on failure.
local function build(what, X, ...)
  local ok, blk = pcall(Residual, ...)
  if not ok then fail(what .. ' raised: ' .. first_line(blk)) return nil end
  for _, name in ipairs({'conv1', 'conv2', 'bn1', 'bn2'}) do
    if blk[name] == nil then fail(what .. ' has no ' .. name .. ': keep __init as the exercise gives it') return nil end
  end
  blk:to(dev)
  local trace, ok2, Y = traced(function() return blk(X) end)
  if not ok2 then
    local msg = first_line(Y)
    if blk.conv3 and msg:find('size') then
      msg = msg .. ': where the block has a conv3 (channels or resolution change), add conv3(X), not X'
    end
    fail(what .. ' raised an error: ' .. msg)
    return nil
  end
  if not torch.is_tensor(Y) then fail(what .. ' should return a tensor, not ' .. type(Y)) return nil end
  if tostring(Y.device) ~= dev then
    fail(what .. ' returned a tensor on ' .. tostring(Y.device) .. ' for X on ' .. dev .. ': keep the work on X\'s device')
    return nil
  end
  local reads = syncs(trace, 'item') + syncs(trace, 'tolist') + syncs(trace, 'print') + syncs(trace, 'cpu')
  if reads > 0 then fail(what .. ' read values back to the host ' .. reads .. ' times: use tensor ops only') return nil end
  if ops(trace, nil, 'cpu') > 0 then fail('part of ' .. what .. ' ran on the CPU: keep the work on X\'s device') return nil end
  return blk
end

-- The block's formula and its usual wrong forms, from the block's own layers.
local function forms(blk, X)
  local Y = blk.bn2(blk.conv2(F.relu(blk.bn1(blk.conv1(X)))))
  local S = blk.conv3 and blk.conv3(X) or X
  return {right = F.relu(Y + S), plain = F.relu(Y), relu_first = F.relu(Y) + S}
end

local function check_block(what, X, want_shape, ...)
  local blk = build(what, X, ...)
  if blk == nil then return false end
  blk:eval()
  local out = blk(X)
  if tostring(out.shape) ~= want_shape then
    fail(what .. ' returned shape ' .. tostring(out.shape):match('%[.*%]') .. ', expected ' .. want_shape:match('%[.*%]'))
    return false
  end
  local f = forms(blk, X)
  if err(out, f.right) < 1e-4 then return true end
  if err(out, f.plain) < 1e-4 then
    fail(what .. ' returns relu(Y) alone, a plain block: add the input back, relu(Y + X), before the last relu: '
         .. 'that sum is the residual connection')
  elseif err(out, f.relu_first) < 1e-4 then
    fail(what .. ' returns relu(Y) + X: add first, then the relu, relu(Y + X), so that the block\'s output is never '
         .. 'negative, as the next block expects')
  else
    fail(what .. ' gives other values than relu(bn2(conv2(relu(bn1(conv1(X))))) + X) by up to '
         .. string.format('%.3g', err(out, f.right)))
  end
  return false
end

local X = torch.randn(N, C, H, H, {device = dev})
if not check_block(('Residual(%d) on X of shape [%d, %d, %d, %d]'):format(C, N, C, H, H), X,
                   ('torch.Size([%d, %d, %d, %d])'):format(N, C, H, H), C) then return end
local C2, H2 = 2 * C, (H + 1) // 2
if not check_block(('Residual(%d, true, 2) on X of shape [%d, %d, %d, %d]'):format(C2, N, C, H, H), X,
                   ('torch.Size([%d, %d, %d, %d])'):format(N, C2, H2, H2), C2, true, 2) then return end
-- in training mode too, and the gradient reaches X through the shortcut
local blk = Residual(C):to(dev)
local Xg = X:clone():requires_grad_()
local ok, out = pcall(function() return blk(Xg) end)
if not ok then fail('Residual(' .. C .. ') in training mode raised: ' .. first_line(out)) return end
out:sum():backward()
check(Xg.grad ~= nil and Xg.grad:abs():sum():item() > 0, 'no gradient reached X: build the output from X with tensor ops')
