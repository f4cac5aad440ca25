-- Exercise 003_average_gradients' reference solution under real ranks (its
-- checker, lessons/exercises/003_average_gradients.check.lua, only pretends to
-- be rank 0 of 3 in one process): each rank takes its shard of a batch, runs
-- backward and average_gradients(model); every rank must then hold the
-- gradients of the whole batch's loss, as one process computes them.
-- arg[1]: the solution file. Run by tests/dist/run.sh:
--   gpulab run --nproc-per-node 2 --virtual-gpus 2 tests/dist/average_gradients.lua SOLUTION
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/../lua/testlib.lua')
local dist = torch.distributed
dist.init_process_group{backend = 'gloo', timeout = 60}
local rank, world = dist.get_rank(), dist.get_world_size()
T.eq(world >= 2, true, 'several ranks')

dofile(assert(arg[1], 'usage: average_gradients.lua SOLUTION'))
T.eq(type(average_gradients), 'function', 'the solution defines average_gradients')

local DEVICES = {'cpu'}
if torch.cuda.is_available() and torch.cuda.device_count() >= world then DEVICES[2] = 'cuda:' .. rank end

local function make_model(device)
  torch.manual_seed(0)  -- the same weights on every rank
  return nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2)):to(device)
end

for _, device in ipairs(DEVICES) do
  T.test('average_gradients on ' .. device, function()
    torch.manual_seed(1)
    local per = 4
    local X, Y = torch.randn(per * world, 4), torch.randn(per * world, 2)
    -- this rank's shard
    local model = make_model(device)
    local xs, ys = X:narrow(0, rank * per, per):to(device), Y:narrow(0, rank * per, per):to(device)
    nn.functional.mse_loss(model(xs), ys):backward()
    local mine = {}
    for i, p in ipairs(model:parameters()) do mine[i] = p.grad:cpu():clone() end
    average_gradients(model)
    -- one process, the whole batch: the mean of equal shards' mean losses
    local ref = make_model('cpu')
    nn.functional.mse_loss(ref(X), Y):backward()
    local refp = ref:parameters()
    local moved = false
    for i, p in ipairs(model:parameters()) do
      T.eq(tostring(p.grad.device), device, 'parameter ' .. i .. '\'s gradient stays on its device')
      local got, want = p.grad:cpu(), refp[i].grad
      T.truthy((got - want):abs():max():item() < 1e-5,
        ('parameter %d: the mean over ranks %s, the whole batch\'s %s'):format(i, tostring(got), tostring(want)))
      if (got - mine[i]):abs():max():item() > 1e-6 then moved = true end
    end
    T.truthy(moved, 'the gradients changed from this rank\'s own')
  end)
end

dist.destroy_process_group()
T.finish()
