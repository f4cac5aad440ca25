-- Checker for 003_average_gradients.lua: torch.distributed pretends to be
-- rank 0 of 3 ranks (get_world_size, get_rank and all_reduce are replaced;
-- all_reduce adds the other ranks' gradients, which the checker made).
local average_gradients = need_function('average_gradients')
if not average_gradients then return end
local dist = torch.distributed
local real = {dist.get_world_size, dist.get_rank, dist.all_reduce, dist.is_initialized}
local world = 3
fresh_seed()
local model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
model(torch.randn(5, 4)):sum():backward()
local params = model:parameters()
local mine, others, reduced = {}, {}, {}
for i, p in ipairs(params) do
  mine[i] = p.grad:clone()
  others[i] = torch.randn(p.shape) * (world - 1)  -- the sum of ranks 1 and 2
end
local bad_op
dist.get_world_size = function() return world end
dist.get_rank = function() return 0 end
dist.is_initialized = function() return true end
dist.all_reduce = function(t, opts)
  local op = type(opts) == 'table' and opts.op or dist.ReduceOp.SUM
  for i, p in ipairs(params) do
    if p.shape == t.shape or tostring(p.shape) == tostring(t.shape) then
      reduced[i] = (reduced[i] or 0) + 1
      if op == dist.ReduceOp.SUM then t:add_(others[i])
      elseif op == dist.ReduceOp.AVG then t:add_(others[i]):div_(world)
      else bad_op = tostring(op) end
      return nil
    end
  end
end
local ok, err = pcall(average_gradients, model)
dist.get_world_size, dist.get_rank, dist.all_reduce, dist.is_initialized = real[1], real[2], real[3], real[4]
if not check(ok, 'average_gradients(model) raised an error: ' .. first_line(err)) then return end
if bad_op then fail('all_reduce with op=' .. bad_op .. ': the mean needs the SUM (the default), then a division') return end
for i, p in ipairs(params) do
  local want = (mine[i] + others[i]) / world
  local what = 'parameter ' .. i .. ' (' .. tostring(p.shape) .. ')'
  if reduced[i] == nil then
    fail(what .. ' was not all-reduced: call torch.distributed.all_reduce(p.grad) for every parameter')
    return
  end
  if reduced[i] > 1 then fail(what .. ' was all-reduced ' .. reduced[i] .. ' times: once is enough') return end
  local got = p.grad
  if got == nil then fail(what .. ' has no gradient any more: average p.grad in place') return end
  if (got - want):abs():max():item() > 1e-5 then
    if (got - (mine[i] + others[i])):abs():max():item() < 1e-5 then
      fail(what .. ': the gradients are summed but not divided by the number of ranks (get_world_size())')
    elseif (got - (mine[i] + others[i]) / 2):abs():max():item() < 1e-5 then
      fail(what .. ': divided by 2, but there are ' .. world .. ' ranks here: divide by torch.distributed.get_world_size()')
    else
      fail(what .. ' is not the mean of the ranks\' gradients')
    end
    return
  end
end
