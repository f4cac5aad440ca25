-- DistributedDataParallel: 20 SGD steps on N ranks, each on its shard of the
-- batch (DistributedSampler), end with the weights of one process trained on
-- the whole batch; no_sync accumulation gives the same; state_dict and print
-- as PyTorch's. Run by tests/dist/run.sh: gpulab run --nproc-per-node N ...
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/../lua/testlib.lua')
local dist = torch.distributed
local data = torch.utils.data
dist.init_process_group{backend = 'gloo', timeout = 60}
local rank, world = dist.get_rank(), dist.get_world_size()
local device = torch.cuda.is_available() and torch.cuda.device_count() >= world and torch.device('cuda', rank)
  or torch.device('cpu')

local function make_model()
  return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
end

torch.manual_seed(100)
local N = 8 * world
local X, Y = torch.randn(N, 4), torch.randn(N, 1)
local ds = data.TensorDataset(X, Y)

torch.manual_seed(rank)  -- every rank starts different: DDP must broadcast rank 0's weights
local model = make_model():to(device)
local ddp = nn.parallel.DistributedDataParallel(model, {device_ids = device.type == 'cuda' and {rank} or nil})

-- The reference: one process, the whole batch, from the same (broadcast) start.
local ref = make_model()
ref:load_state_dict(model:state_dict())

local function max_diff(a, b)
  local m = 0
  for i, p in ipairs(a:parameters()) do
    m = math.max(m, (p.data:cpu() - b:parameters()[i].data:cpu()):abs():max():item())
  end
  return m
end

T.test('construction broadcasts rank 0\'s parameters', function()
  local w = model[0].weight.data:clone()
  local outs = {}
  for r = 1, world do outs[r] = torch.zeros_like(w) end
  dist.all_gather(outs, w)
  for r = 2, world do T.eq((outs[r] - outs[1]):abs():max():item(), 0.0, 'rank ' .. (r - 1)) end
end)

T.test('state_dict has the module. prefix; printed as PyTorch prints it', function()
  local keys = {}
  for k in pairs(ddp:state_dict()) do keys[#keys + 1] = k end
  table.sort(keys)
  T.eq(table.concat(keys, ' '), 'module.0.bias module.0.weight module.2.bias module.2.weight', 'keys')
  T.eq(tostring(ddp), table.concat({
    'DistributedDataParallel(',
    '  (module): Sequential(',
    '    (0): Linear(in_features=4, out_features=8, bias=True)',
    '    (1): Tanh()',
    '    (2): Linear(in_features=8, out_features=1, bias=True)',
    '  )',
    ')'}, '\n'), 'print')
end)

T.test('20 DDP steps equal one process on the whole batch', function()
  local opt = torch.optim.SGD(ddp:parameters(), {lr = 0.1})
  local ref_opt = torch.optim.SGD(ref:parameters(), {lr = 0.1})
  local sampler = data.DistributedSampler(ds, {shuffle = false})
  local loader = data.DataLoader(ds, {batch_size = N // world, sampler = sampler})
  for step = 1, 20 do
    sampler:set_epoch(step)
    for batch in loader do
      opt:zero_grad()
      local loss = nn.functional.mse_loss(ddp(batch[1]), batch[2]:to(device))
      loss:backward()
      opt:step()
    end
    ref_opt:zero_grad()
    nn.functional.mse_loss(ref(X), Y):backward()
    ref_opt:step()
  end
  local d = max_diff(model, ref)
  T.truthy(d < 1e-5, 'max weight difference ' .. d)
  T.truthy(max_diff(make_model(), ref) > 1e-3, 'a fresh model differs (the test can fail)')
end)

T.test('no_sync accumulates locally; the next backward averages the sum', function()
  local opt = torch.optim.SGD(ddp:parameters(), {lr = 0.05})
  local ref_opt = torch.optim.SGD(ref:parameters(), {lr = 0.05})
  local idx = data.DistributedSampler(ds, {shuffle = false}):indices()
  local mine = torch.tensor(idx)
  local xs, ys = X:index_select(0, mine), Y:index_select(0, mine)
  local half = xs:size(0) // 2
  for step = 1, 3 do
    opt:zero_grad()
    ddp:no_sync(function()
      (nn.functional.mse_loss(ddp(xs:narrow(0, 0, half)), ys:narrow(0, 0, half):to(device)) / 2):backward()
    end)
    local g_local = model[0].weight.grad:clone()
    local sum = g_local:clone()
    dist.all_reduce(sum)
    if world > 1 then T.truthy((sum / world - g_local):abs():max():item() > 0, 'no_sync kept it local') end
    (nn.functional.mse_loss(ddp(xs:narrow(0, half, half)), ys:narrow(0, half, half):to(device)) / 2):backward()
    opt:step()
    ref_opt:zero_grad()
    nn.functional.mse_loss(ref(X), Y):backward()
    ref_opt:step()
  end
  local d = max_diff(model, ref)
  T.truthy(d < 1e-5, 'max weight difference ' .. d)
end)

T.test('buckets start while backward runs, the last layer\'s first', function()
  torch.manual_seed(3)
  local m = make_model():to(device)
  local d = nn.parallel.DistributedDataParallel(m, {bucket_cap_mb = 0.000001})  -- 1 byte: one bucket per parameter (a bucket closes once it holds its cap)
  local first_grad_at_start = {}
  local all_reduce = dist.all_reduce
  dist.all_reduce = function(t, opts)
    first_grad_at_start[#first_grad_at_start + 1] = m[0].weight.grad == nil
    return all_reduce(t, opts)
  end
  -- The first backward sees the order gradients come in; the buckets follow it from then on.
  d(X:to(device)):sum():backward()
  for _, p in ipairs(m:parameters()) do p.grad = nil end
  local ok, err = pcall(function() d(X:to(device)):sum():backward() end)
  dist.all_reduce = all_reduce
  assert(ok, err)
  T.eq(#first_grad_at_start, 8, 'one all_reduce per bucket and backward')
  T.eq(first_grad_at_start[5], true, 'the first bucket started before backward reached the first layer')
  T.truthy(m[0].weight.grad ~= nil, 'every gradient is there after backward')
  local g, all = m[0].weight.grad:clone(), {}
  for r = 1, world do all[r] = torch.zeros_like(g) end
  dist.all_gather(all, g)
  for r = 2, world do T.eq((all[r] - all[1]):abs():max():item(), 0.0, 'averaged: equal on rank ' .. (r - 1)) end
end)

T.test('buckets as PyTorch cuts them: the first closes at 1 MiB, the rest at bucket_cap_mb', function()
  local m = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
  local d = nn.parallel.DistributedDataParallel(m)
  -- Last parameters first: 10, 10x512, 512, then 512x512 (1 MiB) closes the first bucket.
  T.eq(#d._buckets, 2, 'buckets')
  T.eq(#d._buckets[1].params, 4, 'parameters in the first bucket')
  T.eq(d._buckets[1].bytes, (10 + 5120 + 512 + 262144) * 4, 'bytes in the first bucket')
  -- 0.01 MiB (10485 bytes) caps the first bucket too: {10, 10x512}, {512, 512x512}, {512, 512x784}.
  local small = nn.parallel.DistributedDataParallel(m, {bucket_cap_mb = 0.01})
  T.eq(#small._buckets, 3, 'buckets of 0.01 MiB')
  T.eq(#small._buckets[1].params, 2, 'parameters in the first bucket of 0.01 MiB')
end)

dist.destroy_process_group()
T.finish()
