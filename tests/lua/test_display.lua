-- display(), update_display() and torch.utils.progress outside a notebook
-- (the kernel's messages are tested in tests/kernel/test_kernel.py).
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')

-- What print and io.stderr receive while fn runs.
local function captured(fn)
  local printed, errs = {}, {}
  local print0, stderr0 = print, io.stderr
  print = function(...)
    local t = table.pack(...)
    for i = 1, t.n do t[i] = tostring(t[i]) end
    printed[#printed + 1] = table.concat(t, '\t')
  end
  io.stderr = {write = function(self, ...) for _, s in ipairs({...}) do errs[#errs + 1] = s end return self end,
               flush = function() end}
  local ok, a, b = pcall(fn)
  print, io.stderr = print0, stderr0
  if not ok then error(a, 0) end
  return table.concat(printed, '\n'), table.concat(errs), a, b
end

T.test('display prints the echo and returns the id only when asked', function()
  local out, _, id = captured(function() return display(torch.arange(3)) end)
  T.eq(out, 'tensor([0, 1, 2])')
  T.eq(id, nil)
  out, _, id = captured(function() return display('text', {display_id = 'fig1'}) end)
  T.eq(out, "'text'")  -- the REPL echo of a string
  T.eq(id, 'fig1')
  _, _, id = captured(function() return display(1, {display_id = true}) end)
  T.truthy(type(id) == 'string' and id:match('^%x+$') and #id == 32, 'a fresh id of 32 hex digits')
  local _, _, id2 = captured(function() return display(1, {display_id = true}) end)
  T.truthy(id ~= id2, 'fresh ids differ')
end)

T.test('__mimebundle: its text/plain, else the echo', function()
  local mt = {__mimebundle = function(self) return {['text/plain'] = 'a plot of ' .. self.n, ['image/png'] = '\137PNG'} end}
  local out = captured(function() display(setmetatable({n = 3}, mt)) end)
  T.eq(out, 'a plot of 3')
  local svg_only = {__mimebundle = function() return {['image/svg+xml'] = '<svg/>'} end,
                    __tostring = function() return 'Figure' end}
  out = captured(function() display(setmetatable({}, svg_only)) end)
  T.eq(out, 'Figure')
end)

T.test('update_display prints the new text again', function()
  local out = captured(function()
    local id = display(torch.zeros(2), {display_id = true})
    update_display(torch.ones(2), {display_id = id})
  end)
  T.eq(out, 'tensor([0., 0.])\ntensor([1., 1.])')
end)

T.test('bad arguments are errors naming what was wrong', function()
  T.raises(function() update_display(1) end,
           "TypeError: update_display() missing 1 required keyword-only argument: 'display_id'")
  T.raises(function() update_display(1, {}) end,
           "TypeError: update_display() missing 1 required keyword-only argument: 'display_id'")
  T.raises(function() update_display(1, {display_id = true}) end,
           'TypeError: update_display(): display_id must be a string, not boolean')
  T.raises(function() display(1, {id = 'x'}) end, "TypeError: display() got an unexpected keyword argument 'id'")
  T.raises(function() display(1, {display_id = 5}) end,
           'TypeError: display(): display_id must be a string or true, not number')
  T.raises(function() display(1, 2) end, 'TypeError: display(): the second argument must be an options table '
           .. 'such as {display_id=...}, not number')
  T.raises(function() display() end, 'value expected', true)
  local bad = setmetatable({}, {__mimebundle = function() return {['text/html'] = 5} end})
  T.raises(function() display(bad) end,
           'TypeError: __mimebundle must return a table of MIME type -> string, found string -> number')
  T.raises(function() display(setmetatable({}, {__mimebundle = 1})) end,
           'TypeError: __mimebundle must be a function, not number')
end)

T.test('help(display) documents the terminal behaviour', function()
  local out = captured(function() help(display) end)
  T.truthy(out:find('__mimebundle', 1, true), 'help(display) names __mimebundle')
  T.truthy(out:find('In the terminal and in scripts display prints', 1, true), 'help(display) says what a terminal shows')
  out = captured(function() help(torch.utils.progress) end)
  T.truthy(out:find('set_postfix', 1, true), 'help(torch.utils.progress)')
end)

-- ctest's stderr is no terminal: the quiet form, the final line alone.
local function ds(n)
  local D = torch.utils.data.TensorDataset(torch.arange(n):float())
  return torch.utils.data.DataLoader(D, {batch_size = 4})
end

T.test('progress over a DataLoader passes its batches through; quiet off a terminal', function()
  local out, err, seen = captured(function()
    local seen = {}
    for batch in torch.utils.progress(ds(10), {desc = 'train'}) do seen[#seen + 1] = batch[1]:numel() end
    return seen
  end)
  T.eq(table.concat(seen, ','), '4,4,2')
  T.eq(out, '')
  T.eq(err, 'train: 100%|' .. ('█'):rep(40) .. '| 3/3\n')
end)

T.test('progress over a DataLoader unpacks each batch for a loop of several names', function()
  local _, _, seen = captured(function()
    local seen = {}
    local D = torch.utils.data.TensorDataset(torch.arange(10):float(), torch.arange(10))
    for X, y in torch.utils.progress(torch.utils.data.DataLoader(D, {batch_size = 4})) do
      seen[#seen + 1] = X:numel() .. ':' .. y:sum():item()
    end
    return seen
  end)
  T.eq(table.concat(seen, ','), '4:6,4:22,2:17')
end)

T.test('progress: lists, ints, iterator functions with total, postfix, break', function()
  local _, err, got = captured(function()
    local got = {}
    for i, v in torch.utils.progress({'a', 'b'}) do got[#got + 1] = i .. v end
    return got
  end)
  T.eq(table.concat(got, ' '), '1a 2b')
  T.truthy(err:find('| 2/2\n', 1, true), err)
  _, err = captured(function()
    local bar = torch.utils.progress(5)
    for _ in bar do bar:set_postfix{loss = torch.tensor(0.123456), acc = 0.5, step = 3} end
  end)
  T.truthy(err:find('| 5/5 [acc=0.5, loss=0.123, step=3]\n', 1, true), err)
  _, err, got = captured(function()
    local loader, got = ds(12), {}
    for i, batch in torch.utils.progress(loader:enumerate(), {total = #loader}) do got[#got + 1] = i end
    return got
  end)
  T.eq(table.concat(got, ','), '0,1,2')
  T.truthy(err:find('| 3/3\n', 1, true), err)
  _, err = captured(function()
    for i in torch.utils.progress(10) do if i == 4 then break end end  -- closed by the loop: 3 steps done
  end)
  T.eq(err:match('(%d+/%d+)'), '3/10')
  T.truthy(err:find('^ 30%%|'), err)
  _, err = captured(function()
    for _ in torch.utils.progress(3, {leave = false}) do end
  end)
  T.eq(err, '')
  _, err = captured(function()
    local bar = torch.utils.progress(nil, {total = 4, desc = 'manual'})
    bar:update(3)
    bar:close()
    bar:close()
  end)
  T.eq(err:match('^manual: +(%d+%%)'), '75%')
  _, err = captured(function()
    local it = coroutine.wrap(function() for k = 1, 3 do coroutine.yield(k) end end)
    for _ in torch.utils.progress(it) do end
  end)
  T.eq(err, '3it\n')
end)

T.test('progress: errors', function()
  T.raises(function() torch.utils.progress(torch.ones(2)) end,
           'TypeError: progress(): expected a DataLoader, a list, an iterator function or an int, not Tensor')
  T.raises(function() torch.utils.progress(3, {totl = 3}) end, "TypeError: progress() got an unexpected keyword argument 'totl'")
  T.raises(function() torch.utils.progress(3, {total = 1.5}) end, 'TypeError: progress(): total must be an int, not float')
  local _, err = captured(function()
    local ok = pcall(function() for i in torch.utils.progress(5) do if i == 2 then error('boom') end end end)
    T.eq(ok, false)
  end)
  T.truthy(err:find('1/5', 1, true), 'an error in the loop closes the bar: ' .. err)
end)

T.finish()
