-- A tiny test helper for the Lua-level tests. Load it relative to the script:
--   local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')
--   T.test('name', function() T.eq(1 + 1, 2) end)
--   T.check_eq(torch.ones(2):sum():item(), 2, 'sum')   -- counted, does not stop the file
--   T.finish()   -- prints 'N passed, M failed' and exits 1 on failure
local T = {passed = 0, failed = 0, skipped = 0}

local function show(v)
  if type(v) == 'string' then return ('%q'):format(v) end
  return tostring(v)
end

function T.test(name, fn)
  -- a test after T.finish() could fail without failing the file
  if T.finished then error('T.test("' .. name .. '") after T.finish(): its result would not count', 2) end
  local ok, err = xpcall(fn, debug.traceback)
  if ok then
    T.passed = T.passed + 1
  else
    T.failed = T.failed + 1
    print('FAIL ' .. name .. '\n' .. tostring(err))
  end
end

-- Note [Emulated or real devices]: cuda:i is emulated in host memory (CI,
-- machines without a GPU: it runs the CPU's kernels, so it rounds, breaks
-- ties, draws random numbers and names kernels as the CPU does), or a slice
-- of a real GPU (it does all that as PyTorch's CUDA kernels do). Cases that
-- compare a device with the CPU to the character hold on the first only.
function T.emulated(i) return torch.cuda.is_emulated(i or 0) end

-- Counts a test that cannot run here and says why.
function T.skip(name, why)
  T.skipped = T.skipped + 1
  print('SKIP ' .. name .. ': ' .. why)
end

function T.eq(got, want, what)
  if got ~= want then
    error(('%s: expected %s, got %s'):format(what or 'eq', show(want), show(got)), 2)
  end
end

function T.truthy(v, what)
  if not v then error((what or 'expected a true value') .. ', got ' .. show(v), 2) end
end

function T.near(got, want, tol, what)
  tol = tol or 1e-6
  if type(got) ~= 'number' or math.abs(got - want) > tol then
    error(('%s: expected %s (+-%g), got %s'):format(what or 'near', show(want), tol, show(got)), 2)
  end
end

-- Compares a tensor (any device) with a nested Lua table of numbers.
function T.close(t, want, tol, what)
  tol = tol or 1e-6
  local got = t:cpu():tolist()
  local function cmp(g, w, path)
    if type(w) == 'table' then
      if type(g) ~= 'table' or #g ~= #w then error(('%s: shape differs at %s'):format(what or 'close', path), 3) end
      for i = 1, #w do cmp(g[i], w[i], path .. '[' .. (i - 1) .. ']') end
    elseif math.abs(g - w) > tol then
      error(('%s: at %s expected %.9g, got %.9g'):format(what or 'close', path, w, g), 3)
    end
  end
  cmp(got, want, '')
end

-- fn must raise; the message must equal `want` (or match it when plain=false).
function T.raises(fn, want, pattern)
  local ok, err = pcall(fn)
  if ok then error('expected an error: ' .. show(want), 2) end
  err = tostring(err)
  if pattern then
    if not err:find(want) then error(('error %s does not match %s'):format(show(err), show(want)), 2) end
  elseif err ~= want then
    error(('wrong error:\n  want %s\n  got  %s'):format(show(want), show(err)), 2)
  end
end

-- Checks that count one pass or one failure each and let the file go on
-- (for scripts of many independent one-line checks):
function T.check(cond, what)
  if cond then
    T.passed = T.passed + 1
  else
    T.failed = T.failed + 1
    print('FAIL: ' .. tostring(what))
  end
  return cond
end

function T.check_eq(got, want, what)
  return T.check(got == want, (what or '') .. '\n  got:  ' .. tostring(got) .. '\n  want: ' .. tostring(want))
end

-- fn must raise an error containing `text` (plain, not a pattern).
function T.check_err(fn, text, what)
  local ok, msg = pcall(fn)
  return T.check(not ok and tostring(msg):find(text, 1, true) ~= nil, (what or text) .. ' -> ' .. tostring(msg))
end

-- Runs `return CODE` with D bound to device (and the names in env, if given)
-- and gives what the REPL would echo, or the error's first line and true.
-- echo(value) may replace torch._echo for each returned value.
function T.echo_code(code, device, env, echo)
  local scope = setmetatable({D = device}, {__index = _G})
  for k, v in pairs(env or {}) do scope[k] = v end
  local fn = assert(load('return ' .. code, code, 't', scope))
  local r = table.pack(pcall(fn))
  if not r[1] then return (tostring(r[2]):match('^[^\n]*')), true end
  if not echo then return torch._echo(table.unpack(r, 2, r.n)), false end
  local parts = {}
  for i = 2, r.n do parts[#parts + 1] = echo(r[i]) end
  return table.concat(parts, '\n'), false
end

-- Cases {name, code, want} generated from PyTorch, each run on the CPU (the
-- echo must be PyTorch's, to the character) and on a virtual cuda:1 (the same
-- up to the device='cuda:1' suffix, which may move a line break).
-- run(code, device) -> text, is_error; on_device(want), if given, turns an
-- expected text into the device's (e.g. a kernel's name in an error);
-- skip_device(name), if given, says why a case cannot hold on cuda:1 here.
function T.device_cases(cases, run, on_device, skip_device)
  for _, c in ipairs(cases) do
    local name, code, want = c[1], c[2], c[3]
    T.test(name .. ' (cpu)', function() T.eq(run(code, 'cpu'), want, name) end)
    local why = skip_device and skip_device(name)
    if why then T.skip(name .. ' (cuda:1)', why) else T.test(name .. ' (cuda:1)', function()
      local got, err = run(code, 'cuda:1')
      local expect = want
      if not err and want:find('tensor%(') then
        T.truthy(got:find("device='cuda:1'", 1, true), name .. ': result not on cuda:1: ' .. got)
        got = got:gsub(",%s*device='cuda:1'", ''):gsub('%s+', ' ')
        expect = want:gsub('%s+', ' ')
      end
      T.eq(got, on_device and on_device(expect) or expect, name)
    end) end
  end
end

function T.finish()
  T.finished = true
  print(('%d passed, %d failed'):format(T.passed, T.failed) ..
        (T.skipped > 0 and (', %d skipped'):format(T.skipped) or ''))
  if T.failed > 0 then os.exit(1) end
end

return T
