-- Regression tests for state leaks an outside fuzzer found: grad mode left off
-- by an error or a hook, torch.save and torch.load misused.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')

-- ---- the first doc read, interrupted ------------------------------------------
-- Must stay first: nothing before it may read a doc (Note [Docs on first use]).
T.test('an interrupt during the first doc load leaves the docs pending, not lost', function()
  local armed = true
  debug.sethook(function()
    if armed then armed = false; error('KeyboardInterrupt', 0) end
  end, '', 20000)
  local ok, err = pcall(torch._doc, torch.ones)
  debug.sethook()
  T.eq(ok, false)
  T.eq(err, 'KeyboardInterrupt')
  -- the chunk that was cut and every one after it run at the next read
  T.truthy(torch._doc(torch.utils.plot.sparkline), 'the last doc chunk ran')
  T.truthy(torch._util.examples, 'torch._util.examples')
  T.truthy(tostring(torch._doc(torch.ones)):find('ones'), tostring(torch._doc(torch.ones)))
end)

-- ---- grad mode restored however the scope ends -----------------------------
local function hook_error_after(n, fn)
  local armed = true
  pcall(function()
    debug.sethook(function()
      if armed then armed = false; error('hook', 0) end
    end, '', n)
    fn()
    armed = false
  end)
  debug.sethook()
end

T.test('grad mode restored after errors and hook-raised errors', function()
  local lin = nn.Linear(2, 2)
  local opt = torch.optim.SGD(lin:parameters(), {lr = 0.1})
  local adam = torch.optim.Adam(lin:parameters(), {lr = 0.1})
  lin(torch.ones(1, 2)):sum():backward()
  local scopes = {
    function() return torch.no_grad(function() return torch.ones(1) + 1 end) end,
    function() return torch.enable_grad(function() return torch.ones(1) + 1 end) end,
    function() return lin:zero_grad() end,
    function() return opt:zero_grad() end,
    function() return opt:step() end,
    function() return adam:step() end,
    function() return nn.init.ones_(torch.empty(2)) end,
    function() return lin:load_state_dict(lin:state_dict()) end,
  }
  -- (The guard form, `local _ <close> = torch.no_grad()`, has one instruction
  -- between the call and the variable's TBC where a hook could still strike;
  -- errors inside the block are checked below.)
  for k, scope in ipairs(scopes) do
    for n = 1, 60 do
      torch.set_grad_enabled(true)
      hook_error_after(n, scope)
      T.eq(torch.is_grad_enabled(), true, ('scope %d, hook after %d instructions'):format(k, n))
    end
  end
  torch.set_grad_enabled(true)
  T.raises(function() torch.no_grad(function() error('inside', 0) end) end, 'inside')
  T.eq(torch.is_grad_enabled(), true, 'after an error inside no_grad')
  torch.set_grad_enabled(false)
  T.raises(function() torch.enable_grad(function() error('inside', 0) end) end, 'inside')
  T.eq(torch.is_grad_enabled(), false, 'after an error inside enable_grad')
  torch.set_grad_enabled(true)
  local x = torch.ones(2, {requires_grad = true})
  T.raises(function() do local _ <close> = torch.no_grad(); error('in guard', 0) end end, 'in guard')
  T.eq(torch.is_grad_enabled(), true, 'after an error under a no_grad guard')
  T.eq(torch.no_grad(function(a, b) return a + b, torch.is_grad_enabled() end, 2, 3), 5)
  T.eq(select(2, torch.no_grad(function() return 1, torch.is_grad_enabled() end)), false)
  local y = (x * 2):sum()
  y:backward()
  T.close(x.grad, {2, 2})
end)

T.test('no_grad scope yields inside a coroutine', function()
  torch.set_grad_enabled(true)
  local co = coroutine.wrap(function()
    return torch.no_grad(function()
      coroutine.yield(torch.is_grad_enabled())
      return 'done', torch.is_grad_enabled()
    end)
  end)
  T.eq(co(), false)
  local r, mode = co()
  T.eq(r, 'done')
  T.eq(mode, false)
  T.eq(torch.is_grad_enabled(), true)
end)

-- ---- torch.save / torch.load misuse ----------------------------------------
local dir = os.tmpname()
os.remove(dir)
os.execute('mkdir -p ' .. dir)
T.test('save paths', function()
  local p = dir .. '/ck.st'
  T.raises(function() torch.save({x = torch.ones(1)}, p .. '\0junk') end, 'ValueError: embedded null byte')
  T.truthy(not io.open(p, 'rb'), 'a file was written at the truncated path')
  torch.save({x = torch.ones(1)}, p)
  T.raises(function() torch.load(p .. '\0junk') end, 'ValueError: embedded null byte')
  T.raises(function() torch.save({x = torch.ones(1)}, p .. '/inner.st') end,
           'RuntimeError: Parent directory ' .. p .. ' is not a directory.')
  -- a stale temporary of a process that is gone is removed by the next save
  local stale = p .. '.tmp.999999999'
  assert(io.open(stale, 'wb')):close()
  torch.save({x = torch.ones(2)}, p)
  T.truthy(not io.open(stale, 'rb'), 'stale temporary left behind')
  T.close(torch.load(p).x, {1, 1})
end)

T.test('load of a FIFO does not block', function()
  local fifo = dir .. '/fifo'
  if not os.execute('mkfifo ' .. fifo .. ' 2>/dev/null') then return end
  T.raises(function() torch.load(fifo) end, "RuntimeError: cannot load '" .. fifo .. "': not a regular file")
  os.remove(fifo)
end)
os.execute('rm -rf ' .. dir)

T.finish()
