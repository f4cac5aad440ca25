-- The built-ins that keep plumbing out of the lessons: time.timeit (devices
-- synchronised around the clock), pyprint, use_virtual after the first CUDA
-- use, and the error of [0] on a Lua list. (Run with --virtual-gpus 4.)
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')

T.test('time.timeit: warm-up, rounds, calls per round, best round', function()
  local calls = 0
  local t = time.timeit(function() calls = calls + 1 end, {number = 5, ['repeat'] = 2, warmup = 1})
  T.eq(calls, 1 + 2 * 5, 'calls')
  T.truthy(math.type(t) == 'float' and t >= 0, 'a time in seconds')
  calls = 0
  time.timeit(function() calls = calls + 1 end)
  T.eq(calls, 1 + 3, 'defaults: one warm-up, three rounds of one call')
end)

T.test('time.timeit synchronises every device before and after each round', function()
  local sync0 = torch.cuda.synchronize
  local log = {}
  torch.cuda.synchronize = function(i) log[#log + 1] = 's' .. tostring(i) end
  local ok, err = pcall(time.timeit, function() log[#log + 1] = 'f' end, {['repeat'] = 1, warmup = 0})
  torch.cuda.synchronize = sync0
  T.truthy(ok, tostring(err))
  T.eq(table.concat(log, ' '), 's0 s1 s2 s3 f s0 s1 s2 s3', 'order of syncs and the timed call')
end)

T.test('time.timeit: bad arguments are clear errors', function()
  local ok, err = pcall(time.timeit, 42)
  T.truthy(not ok and err:find('needs a function to time, not a number', 1, true), tostring(err))
  ok, err = pcall(time.timeit, function() end, {['repeat'] = 0})
  T.truthy(not ok and err:find('repeat must be an integer >= 1', 1, true), tostring(err))
  T.truthy(torch._doc(time.timeit):find('synchronised', 1, true), 'documented')
end)

T.test('pyprint joins with spaces and writes values as Python print', function()
  local write0 = io.write
  local out = {}
  io.write = function(...) for _, s in ipairs({...}) do out[#out + 1] = s end end
  local ok, err = pcall(pyprint, 'input size', torch.Size({30, 5}), 7, nil, true, 0.1, 1e-8, 2.0, 3.4028234663852886e+38)
  io.write = write0
  T.truthy(ok, tostring(err))
  -- print('input size', torch.Size([30, 5]), 7, None, True, 0.1, 1e-8, 2.0, 3.4028234663852886e+38) in Python
  T.eq(table.concat(out), 'input size torch.Size([30, 5]) 7 None True 0.1 1e-08 2.0 3.4028234663852886e+38\n')
  T.truthy(torch._doc(pyprint) ~= nil, 'documented')
end)

T.test('[0] on a Lua list says lists count from 1', function()
  local net = nn.Linear(3, 1)
  T.eq(net:parameters()[1], net.weight, 'first entry is [1]')
  local ok, err = pcall(function() return net:parameters()[0] end)
  T.truthy(not ok and err:find("first entry is [1] (Python's [0])", 1, true), tostring(err))
  ok, err = pcall(function() return nn.Sequential(nn.ReLU()):children()[0] end)
  T.truthy(not ok and err:find('IndexError', 1, true), tostring(err))
  T.eq(net:parameters()[3], nil, 'past the end is nil, as for any Lua list')
end)

T.test('use_virtual: same count again is fine, another one is a clear error', function()
  T.eq(torch.cuda.device_count(), 4)
  torch.cuda.use_virtual(4)
  local ok, err = pcall(torch.cuda.use_virtual, 2)
  T.truthy(not ok and err:find('must come before the first CUDA use: this session already uses 4 virtual GPUs', 1, true),
           tostring(err))
  T.truthy(err:find('hint: start a new session with gpulab --virtual-gpus 2', 1, true), tostring(err))
  ok, err = pcall(torch.cuda.use_virtual, 0)
  T.truthy(not ok and err:find('from 1 to 64', 1, true), tostring(err))
  T.truthy(torch.cuda.is_emulated(0) == (torch.cuda.get_device_name(0):find('emulated') ~= nil), 'is_emulated')
end)

T.finish()
