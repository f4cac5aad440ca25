-- Every collective and point-to-point op, for every dtype gloo takes, on the
-- CPU, on this rank's virtual device and on non-contiguous views, against the
-- same computation done in one process. Run by tests/dist/run.sh:
--   gpulab run --nproc-per-node N --virtual-gpus N tests/dist/collectives.lua
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/../lua/testlib.lua')
local dist = torch.distributed

dist.init_process_group{backend = 'gloo', timeout = 60}
local rank, world = dist.get_rank(), dist.get_world_size()
T.eq(tonumber(os.getenv('RANK')), rank, 'RANK')
T.eq(tonumber(os.getenv('WORLD_SIZE')), world, 'WORLD_SIZE')
T.eq(dist.is_initialized(), true, 'is_initialized')
T.eq(dist.get_backend(), 'gloo', 'get_backend')

local DTYPES = {'float32', 'float64', 'float16', 'bfloat16', 'int64', 'int32', 'int8', 'uint8', 'bool'}
local DEVICES = {'cpu'}
if torch.cuda.is_available() and torch.cuda.device_count() >= world then
  DEVICES[2] = 'cuda:' .. rank
  T.eq(torch.cuda.current_device(), rank, 'gpulab run: rank i uses cuda:i')
end

-- Rank r's tensor: 2x3 values that differ per rank and element (bool: a pattern).
local function value(r, dtype, device)
  local base = torch.tensor({{1, 2, 3}, {4, 5, 6}})
  if dtype == 'bool' then return ((base + r) % 2):eq(0):to(device) end
  return ((base * (r + 1)) % 7 + 1):to{dtype = dtype, device = device}
end

-- One process's reduction of every rank's tensor (in float64, cast back).
local function reference(op, dtype)
  local acc
  for r = 0, world - 1 do
    local v = value(r, dtype, 'cpu'):to(torch.float64)
    if acc == nil then acc = v
    elseif op == 'SUM' or op == 'AVG' then acc = acc + v
    elseif op == 'PRODUCT' then acc = acc * v
    elseif op == 'MAX' then acc = torch.maximum(acc, v)
    elseif op == 'MIN' then acc = torch.minimum(acc, v) end
  end
  if op == 'AVG' then acc = acc / world end
  if dtype == 'bool' then return acc:ne(0) end
  return acc:to(dtype)
end

local function same(got, want, what)
  local g, w = got:cpu():to(torch.float64), want:to(torch.float64)
  local tol = (got.dtype == torch.float16 or got.dtype == torch.bfloat16) and 0.05 or 1e-9
  T.truthy((g - w):abs():max():item() <= tol * (1 + w:abs():max():item()),
    what .. ': got ' .. tostring(got) .. ' want ' .. tostring(want))
  T.eq(got.dtype, want.dtype, what .. ' dtype')
end

for _, device in ipairs(DEVICES) do
  for _, dt in ipairs(DTYPES) do
    local dtype = torch[dt]
    T.test(('all_reduce %s %s'):format(dt, device), function()
      for _, op in ipairs({'SUM', 'AVG', 'PRODUCT', 'MAX', 'MIN'}) do
        local x = value(rank, dtype, device)
        if op == 'AVG' and not x:is_floating_point() then
          T.raises(function() dist.all_reduce(x, {op = dist.ReduceOp.AVG}) end,
            'RuntimeError: result type Float can\'t be cast to the desired output type ', true)
        else
          T.eq(dist.all_reduce(x, {op = dist.ReduceOp[op]}), nil, 'a blocking call returns None')
          same(x, reference(op, dtype), op)
          T.eq(tostring(x.device), device, 'stays on its device')
        end
      end
      -- A non-contiguous view is reduced in place through its storage.
      local base = value(rank, dtype, device):t()
      dist.all_reduce(base, {op = dist.ReduceOp.MAX})
      same(base, reference('MAX', dtype):t(), 'transposed view')
    end)
    T.test(('broadcast %s %s'):format(dt, device), function()
      for src = 0, world - 1 do
        local x = value(rank, dtype, device)
        dist.broadcast(x, src)
        same(x, value(src, dtype, 'cpu'), 'from rank ' .. src)
      end
    end)
    T.test(('all_gather %s %s'):format(dt, device), function()
      local outs = {}
      for r = 1, world do outs[r] = torch.zeros({2, 3}, {dtype = dtype, device = device}) end
      dist.all_gather(outs, value(rank, dtype, device))
      for r = 0, world - 1 do same(outs[r + 1], value(r, dtype, 'cpu'), 'slot ' .. r) end
    end)
    T.test(('reduce_scatter %s %s'):format(dt, device), function()
      if dt == 'bool' then return end  -- sum of bools: checked by all_reduce
      local ins = {}
      for j = 0, world - 1 do ins[j + 1] = value(rank + j, dtype, device) end
      local out = torch.zeros({2, 3}, {dtype = dtype, device = device})
      dist.reduce_scatter(out, ins)
      local want
      for r = 0, world - 1 do
        local v = value(r + rank, dtype, 'cpu'):to(torch.float64)
        want = want and want + v or v
      end
      same(out, want:to(dtype), 'my part')
    end)
    T.test(('send/recv %s %s'):format(dt, device), function()
      local nxt, prev = (rank + 1) % world, (rank - 1) % world
      if world == 1 then return end
      local got = torch.zeros({2, 3}, {dtype = dtype, device = device})
      local s = dist.isend(value(rank, dtype, device), nxt)
      local r = dist.irecv(got, prev)
      T.eq(r:wait(), true, 'wait')
      s:wait()
      same(got, value(prev, dtype, 'cpu'), 'from the previous rank')
      -- blocking, rank 0 first
      local y = torch.zeros({2, 3}, {dtype = dtype, device = device})
      if rank == 0 then dist.send(value(rank, dtype, device), 1, {tag = 5})
      elseif rank == 1 then T.eq(dist.recv(y, 0, {tag = 5}), 0, 'recv returns the sender') end
      if rank == 1 then same(y, value(0, dtype, 'cpu'), 'blocking recv') end
    end)
  end
end

-- recv without src: from whichever rank sends first, returning the sender's
-- rank, as PyTorch's dist.recv(tensor) (gloo's recv from a list of ranks);
-- irecv without src: the handle's source_rank() names it after wait().
T.test('recv from any rank', function()
  if world == 1 then return end
  if rank == 0 then
    local seen = {}
    for _ = 1, world - 1 do
      local t = torch.zeros(3)
      local from = dist.recv(t)
      T.truthy(math.type(from) == 'integer' and from >= 1 and from < world, 'a sender: ' .. tostring(from))
      T.eq(seen[from], nil, 'each sender once')
      seen[from] = true
      T.close(t, {from + 0.5, from + 0.5, from + 0.5}, 0, 'the sender\'s tensor')
    end
    -- keyword form, on a virtual device when there is one
    local dev = DEVICES[2] or 'cpu'
    local w = dist.irecv{tensor = torch.zeros(2, {device = dev}), tag = 8}
    T.eq(w:wait(), true, 'wait')
    T.eq(w:source_rank(), world - 1, 'source_rank after wait')
    T.eq(w:_source_rank(), world - 1, '_source_rank')
    local t = torch.zeros(2)
    local w2 = dist.irecv(t, 1, {tag = 9})
    w2:wait()
    T.eq(w2:source_rank(), 1, 'a recv from a given rank names it too')
  else
    dist.send(torch.full({3}, rank + 0.5), 0)
    if rank == world - 1 then dist.send(torch.ones(2), 0, {tag = 8}) end
    if rank == 1 then dist.isend(torch.ones(2), 0, {tag = 9}):wait() end
  end
  local a = dist.all_reduce(torch.ones(1), {async_op = true})
  a:wait()
  T.raises(function() a:source_rank() end, 'RuntimeError: sourceRank() may only be called on work objects that '
    .. 'correspond to a recv or recv-from-any call.')
end)

T.test('async handles overlap and complete in order', function()
  local xs, works = {}, {}
  for i = 1, 5 do
    xs[i] = torch.full({1000}, rank + i, {dtype = torch.float64})
    works[i] = dist.all_reduce(xs[i], {async_op = true})
    T.truthy(tostring(works[i]):match('^<torch.distributed.distributed_c10d.Work object at 0x'), 'Work repr')
  end
  for i = 5, 1, -1 do T.eq(works[i]:wait(), true, 'wait') end
  for i = 1, 5 do
    T.truthy(works[i]:is_completed(), 'is_completed')
    T.eq(xs[i][0]:item(), world * i + world * (world - 1) / 2, 'value ' .. i)
  end
  local b = dist.barrier{async_op = true}
  b:wait()
  T.eq(dist.barrier(), nil, 'barrier')
end)

T.test('empty tensors and large tensors', function()
  local e = torch.zeros({0})
  dist.all_reduce(e)
  T.eq(e:numel(), 0, 'empty')
  -- past the 2 MiB of one sync-mode ring (tensor/dist/collectives.cpp): 6 slices, the last one short;
  -- each element's own value, so a slice summed into the wrong place shows
  local n = 3 * 1024 * 1024 + 7
  local pattern = torch.arange(n, {dtype = torch.float32}):remainder(1000)
  for _, dt in ipairs({torch.float32, torch.float64}) do
    local big = (pattern + rank):to(dt)
    dist.all_reduce(big)
    T.truthy(big:equal((pattern * world + world * (world - 1) / 2):to(dt)), 'large sum, element by element')
    local avg = (pattern + rank):to(dt)
    dist.all_reduce(avg, {op = dist.ReduceOp.AVG})
    T.truthy(avg:allclose((pattern + (world - 1) / 2):to(dt)), 'large average')
  end
end)

T.test('errors worded as PyTorch', function()
  T.raises(function() dist.all_reduce(torch.ones(2, {dtype = torch.int16})) end, 'RuntimeError: Invalid scalar type')
  T.raises(function() dist.init_process_group('gloo') end, 'ValueError: trying to initialize the default process group twice!')
  T.raises(function() dist.broadcast(torch.ones(2), world) end,
    'RuntimeError: ProcessGroupGloo::broadcast: invalid root rank: ' .. world)
  T.raises(function() dist.send(torch.ones(2), rank) end,
    'ValueError: Invalid destination rank: destination rank should not be the same as the rank of the current process.')
  T.raises(function() dist.all_gather({torch.zeros(3)}, torch.zeros(2)) end,
    ('RuntimeError: ProcessGroupGloo::allgather: invalid output tensor list at index 0 (expected length %d, got 1)'):format(world))
  if world == 2 then
    T.raises(function() dist.all_gather({torch.zeros(2), torch.zeros(3)}, torch.zeros(2)) end,
      'RuntimeError: ProcessGroupGloo::allgather: invalid tensor size at index 1 (expected (2), got (3))')
  end
  local too_many = {}
  for i = 1, world + 1 do too_many[i] = torch.zeros(2) end
  T.raises(function() dist.reduce_scatter(torch.zeros(2), too_many) end,
    'RuntimeError: invalid input tensor list size, must be world size')
  T.raises(function() dist.all_reduce(torch.ones(2), {op = 'sum'}) end, 'TypeError', true)
  -- Every rank is still in step after the errors above.
  local x = torch.ones(3)
  dist.all_reduce(x)
  T.eq(x[0]:item(), world, 'in step')
end)

dist.destroy_process_group()
T.eq(dist.is_initialized(), false, 'destroyed')
T.raises(function() dist.get_rank() end,
  'ValueError: Default process group has not been initialized, please make sure to call init_process_group.')
T.raises(function() dist.destroy_process_group() end, 'AssertionError: Process group cannot be None')
T.finish()
