-- Regression tests for crashes an outside fuzzer found, on userdata: finalizers
-- run twice or by hand, userdata given another type's metatable.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')

-- ---- finalizers --------------------------------------------------------------
T.test('torch.Size __gc twice', function()
  local s = torch.Size{2, 3}
  local gc = getmetatable(s).__gc
  gc(s)
  gc(s)
  T.raises(function() return #s end, 'TypeError: this torch.Size was already finalized (its __gc ran) and cannot be used')
  T.raises(function() return tostring(s) end, 'TypeError: this torch.Size was already finalized (its __gc ran) and cannot be used')
end)

local dead = 'RuntimeError: this Tensor was already finalized (its __gc ran) and cannot be used'
T.test('tensor __gc by hand', function()
  local t = torch.ones(3)
  local gc = getmetatable(t).__gc
  gc(t)
  gc(t)
  T.raises(function() return t + 1 end, dead)
  T.raises(function() return t:sum() end, dead)
  T.raises(function() return tostring(t) end, dead)
  T.raises(function() return t.shape end, dead)
  T.raises(function() return torch.ones(3) + t end, dead)
end)

T.test('a tensor reached again after its __gc by hand gets a live userdata', function()
  local p = torch.zeros(2, {requires_grad = true})
  local g = torch.ones(2)
  p.grad = g
  getmetatable(g).__gc(g)
  local again = p.grad
  T.truthy(again ~= g, 'the dead userdata came back')
  T.close(again + 1, {2, 2})
end)

T.test('a tensor used from another object\'s __gc after its own', function()
  for _ = 1, 20 do
    local err
    local holder = setmetatable({}, {__gc = function(self)
      local ok, e = pcall(function() return (self.t + 1):sum():item() end)
      err = ok and 'ok' or e
    end})
    holder.t = torch.ones(1000)  -- marked after the holder: finalized first
    holder = nil
    collectgarbage()
    collectgarbage()
    T.truthy(err == 'ok' or err == dead, tostring(err))
  end
end)

T.test('grad_fn and Event __gc twice', function()
  local y = torch.ones(2, {requires_grad = true}) * 2
  local fn = y.grad_fn
  local gc = getmetatable(fn).__gc
  gc(fn)
  gc(fn)
  T.truthy(not pcall(tostring, fn), 'a finalized grad_fn printed')
  T.truthy(not pcall(function() return fn:name() end), 'a finalized grad_fn answered name()')
  local e = torch.cuda.Event()
  getmetatable(e).__gc(e)
  getmetatable(e).__gc(e)
  T.raises(function() e:query() end, 'TypeError: expected a torch.cuda.Event')
end)

-- ---- userdata with another type's metatable --------------------------------
T.test('device with the tensor metatable', function()
  local d = torch.device('cpu')
  debug.setmetatable(d, getmetatable(torch.ones(1)))
  local ok, err = pcall(function() return d + 1 end)
  T.eq(ok, false)
  T.truthy(tostring(err):find('^TypeError'), tostring(err))
  T.truthy(not pcall(function() return d:sum() end))
  T.truthy(not pcall(tostring, d))
end)

T.test('every userdata with every other metatable', function()
  local function make()
    local y = torch.ones(2, {requires_grad = true}) * 2
    return {torch.ones(2), torch.device('cuda:1'), torch.float64, torch.Size{4, 5}, y.grad_fn, torch.cuda.Event(),
            torch.Generator()}
  end
  local mts = {}
  for i, v in ipairs(make()) do mts[i] = getmetatable(v) end
  local probes = {
    function(v) return v + 1 end, function(v) return tostring(v) end, function(v) return #v end,
    function(v) return v.shape end, function(v) return v.type end, function(v) return v:sum() end,
    function(v) return v == v end, function(v) return torch.ones(2) + v end, function(v) return v[0] end,
    function(v) return v:name() end, function(v) return v:query() end, function(v) return torch.zeros(v) end,
    function(v) return torch.ones(2, {device = v}) end, function(v) return torch.ones(2, {dtype = v}) end,
  }
  for i = 1, #mts do
    for j = 1, #mts do
      if i ~= j then
        local v = make()[i]
        debug.setmetatable(v, mts[j])
        for _, probe in ipairs(probes) do pcall(probe, v) end
        local gc = mts[j].__gc
        if gc then gc(v) gc(v) end
        -- left with the other metatable: collected by its own finalizer
        -- (Note [One finalizer])
      end
    end
  end
  collectgarbage()
  collectgarbage()
end)

T.test('a userdata with another type\'s metatable is still finalized', function()
  collectgarbage()
  collectgarbage()
  local base = torch.cuda.memory_allocated(0)
  for _, other in ipairs({torch.device('cpu'), torch.float32, torch.Size{1}, torch.Generator()}) do
    local x = torch.ones(1000, {device = 'cuda:0'})
    T.eq(torch.cuda.memory_allocated(0), base + 4096)
    debug.setmetatable(x, getmetatable(other))
    x = nil
    collectgarbage()
    collectgarbage()
    T.eq(torch.cuda.memory_allocated(0), base, 'tensor freed under ' .. tostring(other))
  end
  -- and a grad_fn under the tensor metatable frees the graph it holds
  local y = torch.ones(1000, {device = 'cuda:0', requires_grad = true}):exp()  -- saves its result
  local g = y.grad_fn
  y = nil
  debug.setmetatable(g, getmetatable(torch.ones(1)))
  collectgarbage()
  T.truthy(torch.cuda.memory_allocated(0) > base, 'the graph keeps its saved tensors')
  g = nil
  collectgarbage()
  collectgarbage()
  T.eq(torch.cuda.memory_allocated(0), base)
end)

T.finish()
