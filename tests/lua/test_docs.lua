-- help(f) answers for every public function: those bound in C and those
-- written in Lua (bindings/lua/90_docs.lua), in every module a learner reaches.
local T = dofile((arg[0]:match('^(.*)[/\\]') or '.') .. '/testlib.lua')

local function undocumented()
  local seen, missing = {}, {}
  local function scan(t, name)
    if seen[t] then return end
    seen[t] = true
    for k, v in pairs(t) do
      if type(k) == 'string' and k:sub(1, 1) ~= '_' then
        if type(v) == 'function' and (torch._doc(v) or '') == '' then missing[#missing + 1] = name .. '.' .. k end
        -- plain tables are modules; tables with a metatable are classes and objects
        if type(v) == 'table' and getmetatable(v) == nil then scan(v, name .. '.' .. k) end
      end
    end
  end
  scan(torch, 'torch')
  scan(nn, 'nn')
  scan(time, 'time')
  for k, v in pairs(torch.Tensor) do  -- the tensor methods
    if type(k) == 'string' and k:sub(1, 1) ~= '_' and type(v) == 'function' and (torch._doc(v) or '') == '' then
      missing[#missing + 1] = 'Tensor:' .. k
    end
  end
  table.sort(missing)
  return table.concat(missing, ' ')
end

T.test('every public function has a doc string', function()
  T.eq(undocumented(), '', 'functions without a doc string')
end)

T.test('help prints a function\'s doc and lists modules', function()
  local out = {}
  local print0 = print
  print = function(s) out[#out + 1] = tostring(s) end
  local ok, e = pcall(function()
    help(torch.save)
    help(nn.init)
  end)
  print = print0
  assert(ok, e)
  T.truthy(out[1]:find('torch.save(obj, f)', 1, true), 'help(torch.save)')
  T.truthy(table.concat(out, '\n'):find('xavier_uniform_%s+nn.init.xavier_uniform_'), 'help(nn.init) lists doc lines')
end)

-- Every public function, from the live tables: its doc opens with its
-- signature, names every keyword option the binding checks calls against
-- (torch._signature, where the strict-arguments layer provides it) and no
-- other, and it has an example that runs without an error.
local function public()
  local seen, out = {}, {}
  local function scan(t, name, sep)
    if seen[t] then return end
    seen[t] = true
    for k, v in pairs(t) do
      if type(k) == 'string' and k:sub(1, 1) ~= '_' then
        if type(v) == 'function' then out[#out + 1] = {name .. sep .. k, v} end
        if type(v) == 'table' and getmetatable(v) == nil and sep == '.' then scan(v, name .. '.' .. k, '.') end
        -- classes (nn.Linear, torch.optim.SGD, DataLoader): the methods they define themselves
        if type(v) == 'table' and rawget(v, '__name') and sep == '.' then scan(v, name .. '.' .. k, ':') end
      end
    end
  end
  scan(torch, 'torch', '.')
  scan(nn, 'nn', '.')
  scan(time, 'time', '.')
  scan(torch.Tensor, 'Tensor', ':')
  table.sort(out, function(a, b) return a[1] < b[1] end)
  return out
end

local function options_in(doc)
  local set = {}
  for name in (doc:match('^[^\n]*')):gmatch('([%a_][%w_]*)=') do set[name] = true end
  return set
end

T.test('every public function: signature with its options, and an example', function()
  local no_sig, no_example, wrong = {}, {}, {}
  for _, e in ipairs(public()) do
    local name, fn = e[1], e[2]
    local doc = torch._doc(fn) or ''
    -- (an alias opens with the name it is documented under: register_module is add_module)
    if not doc:match('^[%w_.:]+%b()') then no_sig[#no_sig + 1] = name end
    if not torch._util.examples[fn] then no_example[#no_example + 1] = name end
    local sig = torch._signature and torch._signature(fn)
    if sig then  -- after the strict-arguments layer: the doc's options are exactly the keywords
      local want, have = {}, options_in(doc)
      for kw in sig:gsub('^[^(]*%(', ''):gmatch('([%a_][%w_]*)=') do want[kw] = true end
      for kw in pairs(want) do if not have[kw] then wrong[#wrong + 1] = name .. ' lacks ' .. kw end end
      for kw in pairs(have) do if not want[kw] then wrong[#wrong + 1] = name .. ' lists ' .. kw end end
    end
  end
  T.eq(table.concat(no_sig, ' '), '', 'docs that do not open with the signature')
  T.eq(table.concat(no_example, ' '), '', 'functions without an example')
  table.sort(wrong)
  T.eq(table.concat(wrong, ' '), '', 'options that differ from the signature checked')
end)

T.test('every example runs without an error, those help shows without running included', function()
  local U = torch._util
  local dir = os.tmpname()
  os.remove(dir)
  local save
  for fn, code in pairs(U.examples) do if fn == torch.save then save = code end end
  -- torch.save's example writes the file torch.load's example reads: first, then removed.
  local ok, e = pcall(load('return ' .. save))
  T.truthy(ok, save .. ': ' .. tostring(e))
  -- the plotting examples' files (fig:show() writes figure-N.png) in a folder of their own
  local figures = os.tmpname()
  os.remove(figures)
  os.execute('mkdir -p ' .. figures)
  torch.utils.plot.figure_dir = figures
  local n, shown = 0, 0
  -- In a fixed order (by code): pairs() over functions follows their addresses,
  -- and some examples share state (the process group, the virtual devices).
  local runs = {}
  for fn, code in pairs(U.examples) do runs[#runs + 1] = {fn, code} end
  table.sort(runs, function(a, b) return a[2] < b[2] end)
  for _, r in ipairs(runs) do
    local fn, code = r[1], r[2]
    n = n + 1
    if U.examples_not_run[fn] then shown = shown + 1 end
    local ok2, err = pcall(load('return ' .. code, '=example'))
    -- use_virtual configures the devices once per session: this one already has them
    if not ok2 and fn == torch.cuda.use_virtual and tostring(err):find('must come before the first CUDA use', 1, true) then
      ok2 = true
    end
    T.truthy(ok2, code .. ': ' .. tostring(err))
  end
  os.remove('w.safetensors')
  os.remove('figure.svg')
  os.remove('image.png')
  os.execute('rm -rf ' .. figures)
  torch.utils.plot.figure_dir = nil
  T.truthy(n > 300 and shown >= 10, ('examples %d, shown without running %d'):format(n, shown))
  -- help runs random examples without moving the seed; effectful ones are shown, not run
  torch.manual_seed(7)
  local want = torch.randn(3)
  torch.manual_seed(7)
  local lines = {}
  local print0 = print
  print = function(s) lines[#lines + 1] = s end
  help(torch.randn)
  help(nn.init.kaiming_uniform_)
  help(nn.Linear)
  help(torch.manual_seed)
  print = print0
  T.truthy(torch.randn(3):equal(want), 'help of random functions moved the seed')
  T.truthy(lines[1]:find('{generator=nil, dtype=nil, device=nil, requires_grad=false, pin_memory=false, out=nil}', 1, true), lines[1])
  T.truthy(lines[1]:find('Example:\n>>> torch.randn(2, 3, {dtype=torch.float64})\ntensor([[', 1, true), lines[1])
  T.truthy(lines[3]:find('Linear(in_features=4, out_features=2, bias=False)', 1, true), lines[3])
  T.truthy(lines[4]:find('Example (not run here: it would reseed your generator):\n>>> torch.manual_seed(0)', 1, true), lines[4])
end)

T.finish()
