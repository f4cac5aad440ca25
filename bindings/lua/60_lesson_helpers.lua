-- Helpers the tutorials take from Python's standard library: timing that
-- waits for the devices (time.timeit) and Python's print (pyprint).

-- Waits for the work queued on every CUDA device (nothing to wait for without).
local function synchronize_all()
  if not torch.cuda.is_available() then return end
  for i = 0, torch.cuda.device_count() - 1 do torch.cuda.synchronize(i) end
end

function time.timeit(f, ...)
  local a = torch._util.parse('timeit', {'number', 'repeat', 'warmup'},
                              {number = 1, ['repeat'] = 3, warmup = 1}, ...)
  if type(f) ~= 'function' then
    error('TypeError: time.timeit(f) needs a function to time, not a ' .. type(f), 2)
  end
  for _, k in ipairs({'number', 'repeat', 'warmup'}) do
    if math.type(a[k]) ~= 'integer' or a[k] < (k == 'warmup' and 0 or 1) then
      error('ValueError: time.timeit: ' .. k .. ' must be an integer >= ' .. (k == 'warmup' and 0 or 1), 2)
    end
  end
  for _ = 1, a.warmup do f() end
  local best = math.huge
  for _ = 1, a['repeat'] do
    synchronize_all()
    local t0 = time.perf_counter()
    for _ = 1, a.number do f() end
    synchronize_all()
    best = math.min(best, time.perf_counter() - t0)
  end
  return best
end
torch._set_doc(time.timeit, [[time.timeit(f, {number=1, repeat=3, warmup=1}): seconds that `number` calls of f take,
the best of `repeat` rounds, after `warmup` untimed calls (one-time setup is not counted).
GPU work is queued and runs later, so every CUDA device is synchronised before the clock
starts and before it stops: the time is that of the work, not of queuing it. (Python's
timeit.timeit returns the total of `number` runs; gpulab keeps the best round, as
timeit.repeat's documentation advises.)]])

-- Python's str() of the values Lua and Python share: floats in Python's
-- shortest round-trip form (1.1754943508222875e-38, not Lua's 14 digits),
-- True, False and None.
local PY_WORDS = {[true] = 'True', [false] = 'False'}
local function py_str(v)
  if math.type(v) == 'float' then return torch._util.pyfloat(v) end
  if v == nil then return 'None' end
  return PY_WORDS[v] or tostring(v)
end
function pyprint(...)
  local parts = {}
  for i = 1, select('#', ...) do parts[i] = py_str((select(i, ...))) end
  io.write(table.concat(parts, ' '), '\n')
end
torch._set_doc(pyprint, [[pyprint(...): print as Python's print does: the arguments separated by one space
(Lua's print separates them with a tab), then a newline; numbers, booleans and nil as Python writes
them (1e-08, True, None).]])

if try_gpu then
  torch._set_doc(try_gpu, [[try_gpu(i=0): torch.device('cuda:i') when that device exists, else torch.device('cpu')
(d2l's helper, built in).]])
  torch._set_doc(try_all_gpus, [[try_all_gpus(): a list of every CUDA device, or {torch.device('cpu')} when there is
none (d2l's helper, built in).]])
end
