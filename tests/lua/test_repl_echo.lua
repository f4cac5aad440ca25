-- Golden tests of what the REPL echoes for every kind of value (Python's repr
-- rules), of named tuples, of its errors (In[N], traceback, NameError,
-- AttributeError with did-you-mean) and of help / ?name.
local dir = arg[0]:match('^(.*)[/\\]') or '.'
local T = dofile(dir .. '/testlib.lua')
local run = dofile(dir .. '/repl_driver.lua')

T.test('floats echo as Python repr', function()
  local cases = {
    {0.1 + 0.2, '0.30000000000000004'}, {torch.tensor(0.1):item(), '0.10000000149011612'},
    {math.pi, '3.141592653589793'}, {0 / 0, 'nan'}, {-(0 / 0), 'nan'}, {1 / 0, 'inf'}, {-1 / 0, '-inf'},
    {-0.0, '-0.0'}, {0.0, '0.0'}, {1e16, '1e+16'}, {1e-5, '1e-05'}, {1e15, '1000000000000000.0'},
    {0.0001, '0.0001'}, {1.5, '1.5'}, {100.0, '100.0'}, {123456789012345678.0, '1.2345678901234568e+17'},
    {5e-324, '5e-324'}, {1.7976931348623157e308, '1.7976931348623157e+308'}, {2.5e-7, '2.5e-07'},
    {1e22, '1e+22'}, {12345.678, '12345.678'}, {-1.25e-10, '-1.25e-10'}, {9007199254740993.0, '9007199254740992.0'},
  }
  for _, c in ipairs(cases) do T.eq(repr(c[1]), c[2], ('repr(%.17g)'):format(c[1])) end
  T.eq(torch._util.pyfloat, torch._pyfloat, 'one float printer')
  T.eq(torch._util.repr({0.1, 2}), '[0.1, 2]', 'U.repr uses it')
end)

T.test('integers, booleans and nil echo as Python shows them', function()
  T.eq(repr(42), '42')
  T.eq(repr(-7), '-7')
  T.eq(repr(math.maxinteger), '9223372036854775807')
  T.eq(repr(true), 'True')  -- Python's, as in a tuple or a list
  T.eq(repr(nil), 'None')
end)

T.test('strings echo as Python repr of str', function()
  T.eq(repr('abc'), "'abc'")
  T.eq(repr("it's"), '"it\'s"')
  T.eq(repr('a"b\'c'), "'a\"b\\'c'")
  T.eq(repr('a\0b'), "'a\\x00b'", 'NUL kept')
  T.eq(repr('tab\t\n\r\\'), "'tab\\t\\n\\r\\\\'")
  T.eq(repr('\27[0m\127'), "'\\x1b[0m\\x7f'")
  T.eq(repr('caf\u{e9} \u{3c0}'), "'caf\u{e9} \u{3c0}'", 'UTF-8 kept')
  T.eq(repr('\xff\xc3'), "'\\xff\\xc3'", 'invalid bytes escaped')
  T.eq(repr('\u{a0}\u{85}'), "'\\xa0\\x85'", 'non-printable code points escaped')
end)

T.test('tables echo as Python literals', function()
  T.eq(repr({}), '{}')
  T.eq(repr({1, 2, 3}), '[1, 2, 3]')
  T.eq(repr({1.5, 'a', true, {}}), "[1.5, 'a', True, {}]")
  T.eq(repr({a = 1, ['b b'] = 2, [3] = 'x', [1.5] = 0.5}), "{1.5: 0.5, 3: 'x', 'a': 1, 'b b': 2}")
  T.eq(repr({10, 20, x = 3}), "{1: 10, 2: 20, 'x': 3}")
  T.eq(repr({{1}, {2, {3}}}), '[[1], [2, [3]]]')
  local t = {1}
  t[2] = t
  T.eq(repr(t), '[1, [...]]', 'a cycle')
  local d = {}
  d.self = d
  T.eq(repr(d), "{'self': {...}}")
  T.eq(repr({torch.tensor({1, 2})}), '[tensor([1, 2])]')
end)

T.test('big tables are capped at 1000 items, as IPython', function()
  local big = {}
  for i = 1, 5000 do big[i] = i end
  local s = repr(big)
  T.eq(s:sub(-15), '999, 1000, ...]')
  T.eq(select(2, s:gsub(',', '')), 1000, 'items shown')
  local nested = torch.arange(1000000):reshape(1000, 1000):tolist()
  local n = repr(nested)
  T.truthy(#n < 10000, 'a 1000x1000 tolist() echoes capped, got ' .. #n .. ' bytes')
  T.eq(n:sub(-12), ', ...], ...]')
end)

T.test('namespaces echo as a summary', function()
  local s = repr(torch)
  T.truthy(s:match("^<module 'torch': %d+ functions, %d+ tables?.*; help%(torch%) lists them>$"), s)
  T.truthy(#s < 120, s)
  T.truthy(repr(torch.cuda):match("^<module 'torch.cuda': "), repr(torch.cuda))
  T.truthy(repr(nn):match("^<module 'nn': "), repr(nn))
  T.truthy(repr(math):match("^<module 'math': "), repr(math))
  T.eq(repr(torch.Tensor), "<class 'torch.Tensor'>")
  local fns = {}
  for i = 1, 10 do fns['f' .. i] = function() end end
  T.eq(repr(fns), '<a table: 10 functions>')
end)

T.test('functions echo their name; help echoes the introduction', function()
  T.eq(repr(torch.zeros), '<built-in function torch.zeros>')
  T.truthy(repr(function() end):match('^function: 0x'), 'an anonymous function')
  T.truthy(repr(help):find('At the prompt', 1, true), repr(help))
end)

T.test('named tuples: max/min with a dim', function()
  local x = torch.tensor({{1, 5}, {7, 2}})
  T.eq(torch._echo(x:max(1)), 'torch.return_types.max(\nvalues=tensor([5, 7]),\nindices=tensor([1, 0]))')
  T.eq(torch._echo(torch.min(x, 0)), 'torch.return_types.min(\nvalues=tensor([1, 2]),\nindices=tensor([0, 1]))')
  local v, i = x:max(1)
  T.truthy(x:max(1).values:equal(v), '.values')
  T.truthy(x:max(1).indices:equal(i), '.indices')
  T.eq(rawequal(v.values, v), true, '.values is the tensor itself')
  T.eq(torch._echo(v), 'tensor([5, 7])', 'one result alone is a tensor')
  -- several results echo as IPython shows the tuple (Note [IPython's pretty printer])
  T.eq(torch._echo(v, x:max(1)), '(tensor([5, 7]),\n torch.return_types.max(\n values=tensor([5, 7]),\n indices=tensor([1, 0])))')
  T.eq(torch._echo(1, 'a'), "(1, 'a')")
  local ok, e = pcall(function() return x.values end)
  T.truthy(not ok and e:find("'Tensor' object has no attribute 'values'", 1, true), tostring(e))
  local q, r = torch.linalg.qr(torch.eye(2))
  T.truthy(torch._echo(q, r):match('^torch%.return_types%.linalg_qr%(\nQ=tensor'), torch._echo(q, r))
end)

T.test('help examples run, and help(f) shows them with their output', function()
  local n = 0
  for fn, code in pairs(torch._util.examples) do
    n = n + 1
    if torch._util.examples_not_run[fn] then goto next end  -- test_docs.lua runs those
    local ok, e = pcall(load('return ' .. code))
    T.truthy(ok, code .. ': ' .. tostring(e))
    ::next::
  end
  T.truthy(n >= 40, 'examples: ' .. n)
  local lines = {}
  local print0 = print
  print = function(s) lines[#lines + 1] = s end
  help(torch.eye)
  print = print0
  T.eq(lines[1]:match('Example:\n.*$'), 'Example:\n>>> torch.eye(3)\ntensor([[1., 0., 0.],\n        [0., 1., 0.],\n        [0., 0., 1.]])')
end)

local out = run({
  'foo',
  'torchh',
  'x = nil',
  'x',
  'torch.zeroes',
  "error('boom')",
  'function f(t)\n  return t.sum()\nend',
  'f(torch.ones(2))',
  '?torch.zeros',
  'torch.ones?',
  'help(torch.zeroes)',
  "help('nn.Linaer')",
  'help',
  'help()',
  'x = torch.tensor({{1, 5}, {7, 2}})',
  'x:max(1)',
  '0.1 + 0.2',
  'nosuch:method()',
  'x:summ()',
  'for i = 1, 2 do\n  local y = nil + 1\nend',
  'function g(n) if n == 0 then error("deep") end return 1 + g(n - 1) end',
  'g(5)',
  'function h(n) return 1 + h(n + 1) end',
  'h(1)',
  'net = nn.Linear(2, 3)',
  'net.weigth',
  'net:forwrd(torch.ones(2))',
})

T.test('REPL: undefined names are NameErrors, misspelt ones suggest', function()
  T.eq(out[1], "NameError: name 'foo' is not defined")
  T.eq(out[2], "NameError: name 'torchh' is not defined. Did you mean: 'torch'?")
  T.eq(out[4], "NameError: name 'x' is not defined", 'a global set to nil is deleted')
  T.eq(out[5], "    torch.zeroes\n          ^^^^^^\nAttributeError: module 'torch' has no attribute 'zeroes'. Did you mean: 'zeros'?")
  T.eq(out[18], "    nosuch:method()\n    ^^^^^^\nNameError: name 'nosuch' is not defined")
  T.eq(out[19], "AttributeError: 'Tensor' object has no attribute 'summ'. Did you mean: 'sum'?")
end)

T.test('REPL: cells are In[N], tracebacks keep the user frames', function()
  T.truthy(out[6]:match('^In%[%d+%]:1: boom$'), out[6])
  local want = table.concat({
    'Traceback (most recent call last):',
    '  In[N], line 1, in <module>',
    '    f(torch.ones(2))',
    '  In[N], line 2, in f',
    '    return t.sum()',
    'TypeError: sum() missing 1 required positional arguments: "input"',
    "hint: call methods with ':' in Lua: t:sum(...)"}, '\n')
  T.eq(out[8]:gsub('In%[%d+%]', 'In[N]'), want)
  T.truthy(out[20]:match('^  In%[%d+%], line 2, in <module>\n    local y = nil %+ 1\nIn%[%d+%]:2: attempt to perform arithmetic on a nil value$'), out[20])
end)

T.test('REPL: repeated frames are counted, as Python does; a stack overflow stays short', function()
  local g = 'function g(n) if n == 0 then error("deep") end return 1 + g(n - 1) end'
  T.eq(out[22]:gsub('In%[%d+%]', 'In[N]'), table.concat({'Traceback (most recent call last):',
    '  In[N], line 1, in <module>', '    g(5)', '  In[N], line 1, in g', '    ' .. g, '  In[N], line 1, in g',
    '    ' .. g, '  In[N], line 1, in g', '    ' .. g, '  [Previous line repeated 3 more times]',
    'In[N]:1: deep'}, '\n'))
  local lines = select(2, out[24]:gsub('\n', '')) + 1
  T.truthy(lines < 30 and out[24]:find('more frames not read', 1, true) and out[24]:match('stack overflow$'), out[24])
end)

T.test('REPL: misspelt fields and methods of nn modules suggest', function()
  T.eq(out[26], "AttributeError: 'Linear' object has no attribute 'weigth'. Did you mean: 'weight'?")
  T.eq(out[27], "    net:forwrd(torch.ones(2))\n        ^^^^^^\n"
    .. "AttributeError: 'Linear' object has no attribute 'forwrd'. Did you mean: 'forward'?")
end)

T.test('REPL: help, ?name, name?', function()
  T.truthy(out[9]:find('torch.zeros(2, 3', 1, true), out[9])
  T.truthy(out[10]:find('torch.ones(size', 1, true), out[10])
  -- torch.zeroes is read before help runs: Python's AttributeError (Note [Undefined names])
  T.eq(out[11], "    help(torch.zeroes)\n               ^^^^^^\n"
    .. "AttributeError: module 'torch' has no attribute 'zeroes'. Did you mean: 'zeros'?")
  T.eq(out[12], "help: no such name: 'nn.Linaer'. Did you mean: 'nn.Linear'?")
  T.truthy(out[13]:find('At the prompt', 1, true), 'help alone: ' .. out[13])
  for _, w in ipairs({';', '!cmd', 'Tab', '?name', '%time', '%timeit', 'Ctrl-C'}) do
    T.truthy(out[14]:find(w, 1, true), 'help() mentions ' .. w)
  end
  T.eq(out[16], 'torch.return_types.max(\nvalues=tensor([5, 7]),\nindices=tensor([1, 0]))')
  T.eq(out[17], '0.30000000000000004')
end)

-- IPython's output history (06_repl_history.lua). The driver runs print('@@k')
-- before input k, so input k is In[2k].
T.test('_, __, ___, Out and _N hold what was echoed, as in IPython', function()
  local h = run({
    'x = torch.arange(3)',  -- In[2]: nothing echoed, nothing kept
    'x + 1',                -- In[4]
    '_ * 2',                -- In[6]
    '__, ___',              -- In[8]: one tuple
    'Out[4]',
    '_6',
    'y = 5;',
    '_8',
    '_ = 7',
    'x',                    -- In[20]: _ was assigned, so it stays 7
    '_',
    'Out[20]',
    'Out[2]',
  })
  T.eq(h[2], 'tensor([1, 2, 3])')
  T.eq(h[3], 'tensor([2, 4, 6])')
  T.eq(h[4], "(tensor([1, 2, 3]), '')", 'IPython starts ___ as an empty string')
  T.eq(h[5], 'tensor([1, 2, 3])')
  T.eq(h[6], 'tensor([2, 4, 6])')
  T.eq(h[8], "(tensor([1, 2, 3]), '')")
  T.eq(h[11], '7')
  T.eq(h[12], 'tensor([0, 1, 2])')
  T.eq(h[13], '', 'a cell that echoed nothing has no output')
end)

-- Note [Undefined names]: in a cell, reading a name that does not exist is an
-- error, not a silent nil (a script keeps Lua's rule but for True/False/None).
T.test('undefined names in a cell are errors, as in Python', function()
  local h = run({
    'x = torch.ones(3):requires_grad_(True)',
    'y = torch.ones(2, {dtype=torch.flaot32})',
    'opt = {lr = l}',
    'z = rawget(_G, "nothing_here") == nil',
    'z',
  })
  T.eq(h[1], '    x = torch.ones(3):requires_grad_(True)\n                                     ^^^^\n'
    .. "NameError: name 'True' is not defined\nhint: Lua writes true, false and nil")
  T.eq(h[2], '    y = torch.ones(2, {dtype=torch.flaot32})\n                                   ^^^^^^^\n'
    .. "AttributeError: module 'torch' has no attribute 'flaot32'. Did you mean: 'float32'?")
  T.eq(h[3], "    opt = {lr = l}\n                ^\nNameError: name 'l' is not defined")
  T.eq(h[5], 'True', 'rawget still probes')
  -- a script reads a missing global as nil, as Lua does, but for Python's constants;
  -- torch's modules are strict there too (Note [Undefined names])
  local path = os.tmpname()
  local f = assert(io.open(path, 'w'))
  f:write("print(undefined_global == nil, rawget(torch, 'nosuch') == nil)\nprint(pcall(function() return torch.flaot16 end))\nprint(True)\n")
  f:close()
  local i = -1
  while arg[i - 1] ~= nil do i = i - 1 end
  local p = io.popen("'" .. arg[i] .. "' " .. path .. ' 2>&1')
  local text = p:read('a')
  p:close()
  os.remove(path)
  T.truthy(text:find('true\ttrue\n', 1, true), text)
  -- a name missing from torch's modules is Python's AttributeError in a script too
  T.truthy(text:find("false\t" .. path .. ":2: AttributeError: module 'torch' has no attribute 'flaot16'. Did you mean: 'float16'?", 1, true), text)
  T.truthy(text:find("attempt to read a nil value (global 'True')", 1, true), text)
end)

T.test("print shows a plain table as Python's print shows a list or a dict", function()
  local i = -1
  while arg[i - 1] ~= nil do i = i - 1 end
  local code = "dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.arange(4.), torch.arange(4)), "
    .. "{batch_size=2}); print(dl:iter()()); print(torch.ones(2, 2):tolist(), {a=1}, 'x', nil, torch.ones(1)); "
    .. "print(setmetatable({}, {__tostring=function() return 'obj' end}))"
  local p = io.popen("'" .. arg[i] .. "' -e \"" .. code .. "\" 2>&1")
  local text = p:read('a')
  p:close()
  T.eq(text, "[tensor([0., 1.]), tensor([0, 1])]\n[[1.0, 1.0], [1.0, 1.0]]\t{'a': 1}\tx\tnil\ttensor([1.])\nobj\n")
end)

T.finish()
