-- torch.utils.data.DistributedSampler against PyTorch's own indices
-- (tests/dist/sampler_cases.lua, written by tests/dist/make_sampler_cases.py),
-- and the seeded torch.randperm its shuffle rests on. One process: the
-- sampler is given num_replicas and rank, as PyTorch's tests do.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
local here = arg[0]:match('^(.*)[/\\]') or '.'
local cases = dofile(here .. '/../dist/sampler_cases.lua')
local data = torch.utils.data

local function list_text(t) return '{' .. table.concat(t, ', ') .. '}' end

T.test('randperm with a seeded generator equals PyTorch', function()
  for _, c in ipairs(cases.randperm) do
    local g = torch.Generator():manual_seed(c[2])
    T.eq(list_text(torch.randperm(c[1], {generator = g}):tolist()), list_text(c[3]), ('randperm(%d) seed %d'):format(c[1], c[2]))
  end
end)

T.test('DistributedSampler indices equal PyTorch for every case', function()
  local checked = 0
  for _, c in ipairs(cases) do
    local size, replicas, seed, epoch, shuffle, drop_last, len = table.unpack(c, 1, 7)
    local ds = {}
    for i = 1, size do ds[i] = i - 1 end
    for rank = 0, replicas - 1 do
      local s = data.DistributedSampler(ds, {num_replicas = replicas, rank = rank, shuffle = shuffle, seed = seed,
                                             drop_last = drop_last})
      s:set_epoch(epoch)
      local what = ('size %d, %d replicas, rank %d, seed %d, epoch %d, shuffle %s, drop_last %s'):format(
        size, replicas, rank, seed, epoch, shuffle, drop_last)
      T.eq(#s, len, what .. ': len')
      local got = {}
      for i in s do got[#got + 1] = i end
      T.eq(list_text(got), list_text(c[8 + rank]), what)
      checked = checked + 1
    end
  end
  T.truthy(checked > 300, 'cases checked')
end)

T.test('set_epoch reshuffles; the same epoch gives the same order', function()
  local ds = {}
  for i = 1, 20 do ds[i] = i end
  local s = data.DistributedSampler(ds, {num_replicas = 2, rank = 1, seed = 3})
  local a = list_text(s:indices())
  T.eq(list_text(s:indices()), a, 'same epoch')
  s:set_epoch(1)
  T.truthy(list_text(s:indices()) ~= a, 'epoch 1 differs from epoch 0')
end)

T.test('DataLoader with a DistributedSampler takes its indices in order', function()
  local x = torch.arange(10)
  local ds = data.TensorDataset(x)
  local s = data.DistributedSampler(ds, {num_replicas = 3, rank = 2, shuffle = false})
  local loader = data.DataLoader(ds, {batch_size = 2, sampler = s})
  T.eq(#loader, 2, 'batches')
  local seen = {}
  for batch in loader do
    for _, v in ipairs(batch[1]:tolist()) do seen[#seen + 1] = v end
  end
  T.eq(list_text(seen), '{2, 5, 8, 1}', 'rank 2 of 3, padded with index 1')
end)

T.test('errors as PyTorch', function()
  T.raises(function() data.DistributedSampler({1, 2}, {num_replicas = 2, rank = 2}) end,
    'ValueError: Invalid rank 2, rank should be in the interval [0, 1]')
  if not torch.distributed.is_initialized() then
    T.raises(function() data.DistributedSampler({1, 2}) end, 'RuntimeError: Requires distributed package to be available')
  end
  T.raises(function() data.DataLoader({1, 2}, {shuffle = true, sampler = data.DistributedSampler({1, 2}, {num_replicas = 1, rank = 0})}) end,
    'ValueError: sampler option is mutually exclusive with shuffle')
end)

T.finish()
