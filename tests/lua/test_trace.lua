-- torch._trace: what a piece of code made the devices do (copies, host waits,
-- ops per device), as exercise checkers read it. Runs with virtual GPUs.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')

local function count(list, field, want)
  local n = 0
  for _, e in ipairs(list) do
    local match = true
    for k, v in pairs(want) do if e[k] ~= v then match = false end end
    if match then n = n + e[field] end
  end
  return n
end

T.test('nothing is counted outside start/stop', function()
  local x = torch.ones(3, {device = 'cuda:0'})
  local _ = (x + 1):sum():item()
  torch._trace.start()
  local t = torch._trace.stop()
  T.eq(#t.copies, 0, 'copies')
  T.eq(#t.syncs, 0, 'syncs')
  T.eq(#t.ops, 0, 'ops')
  T.eq(t.h2d.calls + t.d2h.calls + t.d2d.calls, 0, 'totals')
end)

T.test('copies by direction, with bytes and totals', function()
  local x = torch.tensor({1, 2, 3})  -- int64: 24 bytes
  torch._trace.start()
  local a = x:to('cuda:0')
  local b = a:to('cuda:1')
  local c = b:cpu()
  local t = torch._trace.stop()
  T.eq(count(t.copies, 'bytes', {from = 'cpu', to = 'cuda:0'}), 24, 'h2d bytes')
  T.eq(count(t.copies, 'calls', {from = 'cuda:0', to = 'cuda:1'}), 1, 'd2d calls')
  T.eq(t.h2d.calls, 1, 'h2d')
  T.eq(t.d2h.calls, 1, 'd2h')
  T.eq(t.d2d.bytes, 24, 'd2d bytes')
  T.eq(c:tolist()[3], 3, 'the values came through')
end)

T.test('host waits are named: item, tolist, print, cpu, synchronize', function()
  local x = torch.ones(2, {device = 'cuda:1'})
  torch._trace.start()
  local _ = x:sum():item()
  local _ = x:tolist()
  local _ = tostring(x)
  local _ = x:cpu()
  torch.cuda.synchronize(1)
  local _ = torch.ones(2):sum():item()  -- a CPU tensor: no device to wait for
  local t = torch._trace.stop()
  for _, what in ipairs({'item', 'tolist', 'print', 'cpu', 'synchronize'}) do
    T.eq(count(t.syncs, 'count', {what = what, device = 'cuda:1'}), 1, what)
  end
  T.eq(t.nsyncs, 5, 'total')
end)

T.test('ops by name and device; peek keeps counting', function()
  local A = torch.randn{4, 4, device = 'cuda:0'}
  local H = torch.randn{4, 4}
  torch._trace.start()
  local _ = A:mm(A)
  local p = torch._trace.peek()
  local _ = H:mm(H) + H
  local t = torch._trace.stop()
  T.eq(count(p.ops, 'count', {name = 'mm'}), 1, 'peek sees the first mm only')
  T.eq(count(t.ops, 'count', {name = 'mm', device = 'cuda:0'}), 1, 'mm on cuda:0')
  T.eq(count(t.ops, 'count', {name = 'mm', device = 'cpu'}), 1, 'mm on cpu')
  T.eq(count(t.ops, 'count', {name = 'add', device = 'cpu'}), 1, 'add on cpu')
end)

T.test('collections: a loop\'s dropped results are freed by minor collections', function()
  -- Note [Young garbage first]: r, 16 MiB, never shares a segment with the next
  -- one; the block it held is needed again at once.
  local function step() local r = torch.empty(1 << 22, {device = 'cuda:0'}) end
  step()
  torch._trace.start()
  for _ = 1, 20 do step() end
  local t = torch._trace.stop()
  T.eq(t.collections.full, 0, 'no full collection')
  T.truthy(t.collections.young >= 19, 'a minor collection per result: ' .. t.collections.young)
  torch._trace.start()
  local _ = torch.cuda.memory_allocated(0)  -- statistics are exact: a full collection first
  T.eq(torch._trace.stop().collections.full, 1, 'memory_allocated collects fully')
end)

T.finish()
