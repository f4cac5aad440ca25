-- Malformed calls, generated: every one must raise a Lua error (never crash,
-- never succeed silently), and the session must carry on with its tensors intact.
local passed, failed = 0, 0
local keep = torch.arange(6):view(2, 3)
local keep_text = tostring(keep)

local bad_values = {
  {'nil', nil}, {'string', 'abc'}, {'function', print}, {'table of strings', {'a', 'b'}},
  {'nan', 0 / 0}, {'huge', 1 << 62}, {'negative', -5}, {'bool', true}, {'nested bad', {{1, 2}, {3}}},
}
local a = torch.ones(2, 3)
local b = torch.ones(4, 5)

-- Functions whose first (or only) argument must be a size or tensor.
local creators = {'zeros', 'ones', 'empty', 'rand', 'randn'}
local calls = {}
local function add(name, fn) calls[#calls + 1] = {name, fn} end

for _, c in ipairs(creators) do
  for _, v in ipairs(bad_values) do
    if v[1] ~= 'nil' and v[1] ~= 'bool' then add(c .. '(' .. v[1] .. ')', function() return torch[c](v[2]) end) end
    add(c .. '(2, ' .. v[1] .. ')', function() return torch[c](2, v[2] == nil and 'x' or v[2]) end)
    add(c .. '{2, device=' .. v[1] .. '}', function() return torch[c]{2, device = v[2] == nil and 'gpu' or v[2]} end)
    add(c .. '{2, dtype=' .. v[1] .. '}', function() return torch[c]{2, dtype = v[2] == nil and 'float99' or v[2]} end)
  end
end
-- Binary ops with wrong operands.
for _, op in ipairs({'add', 'sub', 'mul', 'div', 'matmul', 'mm', 'eq', 'lt', 'maximum', 'pow'}) do
  for _, v in ipairs(bad_values) do
    if v[1] ~= 'negative' and v[1] ~= 'nan' and v[1] ~= 'huge' and v[1] ~= 'bool' then
      add(op .. '(t, ' .. v[1] .. ')', function() return a[op](a, v[2]) end)
    end
  end
  if op ~= 'pow' then add(op .. ' shape mismatch', function() return a[op](a, b) end) end
end
-- Dims out of range and bad dim types, on every dim-taking method.
for _, m in ipairs({'sum', 'mean', 'argmax', 'unsqueeze', 'squeeze', 'softmax', 'log_softmax', 'chunk', 'transpose', 'select', 'narrow', 'flatten', 'max', 'min', 'prod', 'norm', 'cumsum_missing'}) do
  for _, d in ipairs({99, -99, 'x', {'bad'}, 2.5}) do
    add(m .. '(dim=' .. tostring(d) .. ')', function()
      if m == 'chunk' then return a:chunk(2, d) end
      if m == 'transpose' then return a:transpose(0, d) end
      if m == 'select' then return a:select(d, 0) end
      if m == 'narrow' then return a:narrow(d, 0, 1) end
      if m == 'flatten' then return a:flatten(d) end
      if m == 'norm' then return a:norm(2, d) end
      if m == 'cumsum_missing' then return a:cumsum(d) end
      return a[m](a, d)
    end)
  end
end
-- Views and indexing.
for _, s in ipairs({{7}, {-2, -2}, {4, 4}, {'a'}, {2.5, 2}}) do
  add('view' .. #s, function() return a:view(table.unpack(s)) end)
  add('reshape' .. #s, function() return a:reshape(table.unpack(s)) end)
  add('expand' .. #s, function() return a:expand(table.unpack(s)) end)
  add('permute' .. #s, function() return a:permute(table.unpack(s)) end)
end
for _, k in ipairs({5, -5, '9', '0,0,0', 'x:y', '::0', 2.5, true, print, {print}, '..., ...'}) do
  add('index ' .. tostring(k), function() return a[k] end)
  add('assign ' .. tostring(k), function() a[k] = 1 end)
end
add('assign string', function() a[0] = 'x' end)
add('assign table', function() a[0] = {} end)
-- Devices.
for _, d in ipairs({'gpu', 'cuda:-1', 'cuda:x', 'cuda:99', 'cpu:1', 'cuda:01', '', 99, -1}) do
  add('device ' .. tostring(d), function() return torch.device(d) ~= nil and torch.ones(1, {device = d}) end)
  add('to ' .. tostring(d), function() return a:to(d) end)
end
add('cuda(99)', function() return a:cuda(99) end)
add('set_device(99)', function() torch.cuda.set_device(99) end)
add('set_device(-1)', function() torch.cuda.set_device(-1) end)
add('huge cuda alloc', function() return torch.empty(1 << 42, {device = 'cuda:0'}) end)
add('huge cpu alloc', function() return torch.empty(1 << 50) end)
add('overflowing shape', function() return torch.empty(1 << 40, 1 << 40) end)
-- Creation functions with bad data.
for _, d in ipairs({{1, 'a'}, {{1, 2}, {1}}, {{1}, 2}, {print}, 'abc'}) do
  add('tensor bad data', function() return torch.tensor(d) end)
end
add('arange step 0', function() return torch.arange(0, 5, 0) end)
add('arange inf', function() return torch.arange(0, 1 / 0) end)
add('arange wrong sign', function() return torch.arange(5, 0, 1) end)
add('randint empty range', function() return torch.randint(5, 5, {3}) end)
add('linspace negative', function() return torch.linspace(0, 1, -1) end)
add('eye negative', function() return torch.eye(-1) end)
add('cat empty', function() return torch.cat({}) end)
add('cat mismatch', function() return torch.cat({a, b}) end)
add('cat not tensors', function() return torch.cat({1, 2}) end)
add('stack mismatch', function() return torch.stack({a, b}) end)
add('item of many', function() return a:item() end)
add('backward no grad', function() a:sum():backward() end)
add('backward non-scalar', function() local w = torch.ones(2, {requires_grad = true}); (w * 2):backward() end)
add('requires_grad on ints', function() torch.ones(2, {dtype = torch.int64}):requires_grad_() end)
add('int division by zero', function() return torch.tensor({1, 2}) % 0 end)
add('integer negative pow', function() return torch.tensor({2}) ^ -1 end)
add('mean of ints', function() return torch.tensor({1, 2}):mean() end)
add('max of empty', function() return torch.tensor({}):max() end)
add('bool negation', function() return -torch.tensor({true}) end)
add('unknown attribute', function() return a.nonexistent end)
add('set unknown attribute', function() a.shape = 3 end)
add('mm dtype mismatch', function() return torch.ones(2, 2):mm(torch.ones(2, 2, {dtype = torch.float64})) end)
add('unexpected keyword', function() return torch.zeros(2, {devcie = 'cpu'}) end)
-- 0-d tensors have no dim 0 to split or read; absent arguments (index 0 on the Lua stack) once crashed.
add('split 0-d', function() return torch.tensor(3):split(1) end)
add('split 0-d no size', function() return torch.tensor(3):split() end)
add('size of 0-d', function() return torch.tensor(3):size(0) end)
add('stride of 0-d', function() return torch.tensor(3):stride(-1) end)
add('unbind 0-d', function() return torch.tensor(3):unbind() end)
add('tensor(nil, opts)', function() return torch.tensor(nil, {dtype = torch.float64}) end)
add('div nil with rounding_mode', function() return torch.div(a, nil, {rounding_mode = 'floor'}) end)
add('add nil with alpha', function() return a:add(nil, {alpha = 2}) end)
add('set_printoptions bad sci_mode', function() torch.set_printoptions{sci_mode = 'yes'} end)
add('set_printoptions bad profile', function() torch.set_printoptions{profile = 'nope'} end)

for _, c in ipairs(calls) do
  local ok, err = pcall(c[2])
  if ok then
    failed = failed + 1
    print('FAIL (no error): ' .. c[1])
  elseif type(err) ~= 'string' or not err:match('^%u%a+Error: ') then
    failed = failed + 1
    print('FAIL (error without a Python-style kind): ' .. c[1] .. ' -> ' .. tostring(err))
  else
    passed = passed + 1
  end
end
-- Random calls (fixed seed): every torch function and tensor method with 0-3
-- arguments drawn from odd values. Only survival is checked (some calls are
-- valid); this found a segfault on 0-d tensors and absent arguments.
do
  local odd = {0, -1, 2, 1 << 62, 0 / 0, 1 / 0, 2.5, true, 'x', '::', {}, {1}, {{1}}, {-1, -1}, {dim = 99}, print,
    torch.ones(2, 3), torch.zeros(0), torch.tensor(3), torch.tensor({true}), torch.ones(2, {device = 'cuda:1'}),
    torch.ones(3, 2, {dtype = torch.float16}), torch.arange(5), torch.float64, torch.device('cuda:1'), torch.Size({2})}
  local bases = {torch.ones(2, 3), torch.zeros(0), torch.tensor(3), torch.tensor({true, false}),
    torch.ones(2, {device = 'cuda:0'}), torch.arange(6):view(2, 3), torch.ones(2, {dtype = torch.float16})}
  local stateful = {save = true, load = true, manual_seed = true, set_printoptions = true, set_grad_enabled = true,
    no_grad = true, enable_grad = true, set_default_dtype = true}
  local names = {}
  for k, v in pairs(torch) do
    if type(v) == 'function' and not stateful[k] and k:sub(1, 1) ~= '_' then names[#names + 1] = k end
  end
  for _, m in ipairs({'view', 'reshape', 'transpose', 'permute', 'unsqueeze', 'squeeze', 'expand', 'chunk', 'split',
    'narrow', 'select', 'flatten', 'item', 'tolist', 'copy_', 'fill_', 'to', 'cuda', 'type', 'size', 'stride',
    'unbind', 'index_select', 'repeat', 'new_full', 'new_tensor', 'uniform_', 'normal_', 'backward'}) do
    names[#names + 1] = m
  end
  table.sort(names)
  math.randomseed(7)
  local survived = 0
  for _, f in ipairs(names) do
    for _ = 1, 30 do
      local args, k = {}, math.random(0, 3)
      for j = 1, k do args[j] = odd[math.random(1, #odd + 1)] end  -- #odd + 1: nil
      local base = bases[math.random(1, #bases)]
      local fn = torch[f]
      pcall(function() if fn then fn(table.unpack(args, 1, k)) end end)
      pcall(function() local mfn = base[f]; if type(mfn) == 'function' then mfn(base, table.unpack(args, 1, k)) end end)
      survived = survived + 1
    end
  end
  torch.set_printoptions{profile = 'default'}
  collectgarbage()
  if survived == #names * 30 then passed = passed + 1 else failed = failed + 1; print('FAIL: random calls') end
end
if tostring(keep) == keep_text then passed = passed + 1 else failed = failed + 1; print('FAIL: earlier tensor changed') end
assert(#calls >= 300, 'expected at least 300 generated calls, got ' .. #calls)
print(string.format('%d malformed calls', #calls))
print(string.format('%d passed, %d failed', passed, failed))
if failed > 0 then os.exit(1) end
