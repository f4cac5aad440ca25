-- One-line hints for Python habits, shown under a REPL error. Each rule looks
-- at the error (msg), the offending line, the whole cell and, for a
-- NameError, the missing name; the first rule that matches gives the hint.
-- tests/lua/test_repl_hints.lua holds the golden table of the habits.
local U = torch._util
-- The learner's cells may reassign any global: hold on to what is used here.
local pcall, debug, ipairs, pairs, next, type, tostring, tonumber = pcall, debug, ipairs, pairs, next, type, tostring, tonumber
local getmetatable, rawget, math, table, string, io, load, torch, _G = getmetatable, rawget, math, table, string, io, load, torch, _G
local R = U.repl

-- Names Python has and Lua spells otherwise (NameError hints).
local python_names = {
  True = 'Lua writes true, false and nil',
  False = 'Lua writes true, false and nil',
  None = 'Lua writes true, false and nil',
  len = "Lua writes #t for a table's length; for a tensor x:size(0), x.shape[0] or x:numel()",
  range = 'Lua counts with `for i = 0, n - 1 do ... end`; torch.arange(n) makes a tensor',
  exit = 'leave with Ctrl-D (or os.exit())',
  quit = 'leave with Ctrl-D (or os.exit())',
  self = "a function defined with '.' has no self: define it as function T:f(...) and call it as obj:f(...)",
  str = 'Lua writes tostring(x)',
  int = 'Lua writes math.floor(x) or math.tointeger(x); tonumber(s) reads a number; tensors: x:long()',
  float = 'Lua writes tonumber(s) for a number; tensors: x:float()',
  list = 'Lua has one container, the table: {1, 2, 3} for a list',
  dict = "Lua has one container, the table: {a = 1, ['b c'] = 2} for a dict",
  input = 'Lua reads a line with io.read()',
  abs = 'Lua writes math.abs(x); tensors: x:abs()',
  sum = 'for a tensor: x:sum() or torch.sum(x); for a table, add in a loop',
  isinstance = "Lua writes torch.is_tensor(x) or type(x) == 'table'",
  id = "Lua has no id(): rawequal(a, b) tells whether a and b are one object; for tensors, x:data_ptr() is where its memory starts",
  enumerate = 'Lua writes `for i, v in ipairs(t) do ... end` (i counts from 1)',
  zip = 'Lua has no zip: loop with `for i = 1, #a do ... a[i], b[i] ... end`',
  sorted = 'Lua sorts a table in place with table.sort(t)',
  np = 'there is no NumPy here: tensors do its work, and x:tolist() gives Lua tables',
  numpy = 'there is no NumPy here: tensors do its work, and x:tolist() gives Lua tables',
  open = "Lua opens files with io.open(path, 'r')",
  super = "a subclass calls its parent's method as Parent.method(self, ...)",
}

local function strip_strings(s)
  return (s:gsub('%[(=*)%[.-%]%1%]', '""'):gsub('"[^"]*"', '""'):gsub("'[^']*'", "''"))
end

local function tensor_method(name)
  return type(name) == 'string' and rawget(torch.Tensor, name) ~= nil
end

-- obj.name(...) where obj has a method `name`: Python's call through '.'.
local function dot_call(ctx)
  for obj, name in strip_strings(ctx.line):gmatch('([%a_][%w_]*)%.([%a_][%w_]*)%s*%(') do
    local v = ctx.vars and ctx.vars[obj] and ctx.vars[obj][1] or rawget(_G, obj)
    if U.is_tensor(v) and tensor_method(name) then return obj, name end
    local mt = type(v) == 'table' and not U.is_namespace(v) and getmetatable(v)
    if mt and type(v[name]) == 'function' then return obj, name end
    if type(v) == 'userdata' and not U.is_tensor(v) then  -- torch.Size, a generator: s.numel()
      local ok, f = pcall(function() return v[name] end)
      if ok and type(f) == 'function' then return obj, name end
    end
    if v == nil and tensor_method(name) and ctx.msg:find('missing 1 required positional arguments: "input"', 1, true) then
      return obj, name
    end
  end
  if ctx.msg:find('missing 1 required positional arguments: "input"', 1, true) then
    local obj, name = ctx.line:match('([%a_][%w_%]%)]*)%.([%a_][%w_]*)%s*%(')
    -- a library function (torch.exp(), torch.linalg.vector_norm()) is called with '.': no hint
    local path = ctx.line:match('([%a_][%w_.]*)%.[%a_][%w_]*%s*%(')
    if obj and not (path == 'torch' or (path or ''):match('^torch%.')) then return obj, name end
  end
  if ctx.msg:find("nil value (local 'self')", 1, true) then
    local obj, name = ctx.line:match('([%a_][%w_]*)%.([%a_][%w_]*)%s*%(')
    if obj then return obj, name end
  end
end

local S = function(ctx) return strip_strings(ctx.cell) end

-- torch.randn(2, 3, device="cuda") as Lua writes it: the first call whose
-- arguments hold name=value gets its keywords in a trailing table, with
-- Python's True, False and None as Lua's (False would be an unset global,
-- nil); x.sum(dim=0) on a tensor x becomes x:sum({dim=0}), and net.to(...)
-- on a module net:to(...). nil where the
-- line is not that simple.
local python_constants = {True = 'true', False = 'false', None = 'nil'}
local function keywords_in_table(line)
  -- the line with each string's contents masked, so positions stay
  local m = line:gsub('(["\'])(.-)%1', function(q, body) return q .. ('_'):rep(#body) .. q end)
  local depth, i = 0, 1
  while i <= #m do
    local ch = m:sub(i, i)
    if ch == '(' then depth = depth + 1
    elseif ch == ')' then depth = depth - 1
    elseif depth > 0 and ch:match('[%a_]') and not m:sub(i - 1, i - 1):match('[%w_%.:]') then
      local name, eq = m:match('^([%a_][%w_]*)%s*()=', i)
      if name and m:sub(eq + 1, eq + 1) ~= '=' and m:sub(1, i - 1):match('[(,]%s*$') then
        local open, close, d = nil, nil, 0
        for j = i, #m do  -- the ')' that ends this call
          local cj = m:sub(j, j)
          if cj:match('[%(%[{]') then d = d + 1
          elseif cj:match('[%)%]}]') then
            if d == 0 then close = j break end
            d = d - 1
          end
        end
        if not close or m:sub(close, close) ~= ')' then return nil end
        d = 0
        for j = i - 1, 1, -1 do  -- the '(' that opens it
          local cj = m:sub(j, j)
          if cj == ')' then d = d + 1 elseif cj == '(' then
            if d == 0 then open = j break end
            d = d - 1
          end
        end
        local kw_m, kw = m:sub(i, close - 1):gsub('%s+$', ''), line:sub(i, close - 1):gsub('%s+$', '')
        local out, last = {}, 1
        for at, word, after in kw_m:gmatch('()%f[%w_]([%a_][%w_]*)()') do
          if python_constants[word] then
            out[#out + 1] = kw:sub(last, at - 1) .. python_constants[word]
            last = after
          end
        end
        out[#out + 1] = kw:sub(last)
        local head = line:sub(1, i - 1)
        local obj, meth = head:sub(1, open - 1):match('([%a_][%w_]*)%.([%a_][%w_]*)%s*$')
        local v = obj and rawget(_G, obj)
        local object = type(v) == 'table' and not U.is_namespace(v) and getmetatable(v) and type(v[meth]) == 'function'
        if obj and ((U.is_tensor(v) and tensor_method(meth)) or object) then
          head = head:sub(1, open - 1):gsub('%.([%a_][%w_]*)%s*$', ':%1') .. head:sub(open)
        end
        return head .. '{' .. table.concat(out) .. '}' .. line:sub(close)
      end
    end
    i = i + 1
  end
  return nil
end

-- The operands of the first == or ~= in `line` (brackets balanced), or nil.
local function compared(line)
  local at, op = nil, nil
  for i = 1, #line - 1 do
    local two = line:sub(i, i + 1)
    if (two == '==' or two == '~=') and line:sub(i - 1, i - 1) ~= '=' and line:sub(i + 2, i + 2) ~= '=' then
      at, op = i, two
      break
    end
  end
  if not at then return nil end
  local function scan(from, to, step, open, close)
    local depth, i = 0, from
    while i ~= to + step do
      local ch = line:sub(i, i)
      if ch == open then depth = depth + 1
      elseif ch == close then
        if depth == 0 then break end
        depth = depth - 1
      elseif depth == 0 and (ch == ',' or ch == '=' or ch == ';' or ch == '{' or ch == '}') then break end
      i = i + step
    end
    return i
  end
  local l = scan(at - 1, 1, -1, ')', '(')
  local r = scan(at + 2, #line, 1, '(', ')')
  local a, b = line:sub(l + 1, at - 1), line:sub(at + 2, r - 1)
  a, b = a:match('^%s*(.-)%s*$'), b:match('^%s*(.-)%s*$')
  a = a:gsub('^return%s+', ''):gsub('^local%s+', '')
  b = b:gsub('%s+then$', ''):gsub('%s+do$', ''):gsub('%s+and%s.*$', ''):gsub('%s+or%s.*$', '')
  if a == '' or b == '' then return nil end
  return a, op, b
end

-- Note [Tensor ==]: pred:argmax(1) == y is true or false in Lua, and the
-- learner meets it one step later, as a boolean that cannot be indexed, added
-- or passed as a tensor.
local function tensor_eq_hint(c)
  local m = c.msg
  if not (m:find('attempt to index a boolean value', 1, true) or m:find('arithmetic on a boolean value', 1, true)
          or m:find('must be Tensor, not bool', 1, true) or m:find('attempt to call a boolean value', 1, true)) then
    return nil
  end
  local a, op, b = compared(strip_strings(c.line))
  if not a then return nil end
  local self = a:match('^[%w_%.:%[%]%(%)]+$') and a or '(' .. a .. ')'
  local asks = op == '==' and 'whether both sides are the same object' or 'whether the two sides are different objects'
  return ("Lua's %s gives true or false (%s), never a tensor: PyTorch's %s %s %s is %s:%s(%s) here"):format(op, asks, a,
    op == '==' and '==' or '!=', b, self, op == '==' and 'eq' or 'ne', b)
end

-- Python's `with torch.autocast(device_type='cuda', dtype=torch.float16):` in
-- Lua's two forms, its arguments where Lua takes them (keywords in a trailing
-- table); other `with`s get torch.no_grad's.
local function with_hint(cell)
  local call, args = cell:match('^%s*with%s+(torch[%w_.]*)%s*(%b())')
  if not call or call == 'torch.no_grad' then
    return 'use torch.no_grad(function() ... end), or `local _ <close> = torch.no_grad()` inside a do ... end block'
  end
  local pos, kw = {}, {}
  for a in args:sub(2, -2):gmatch('[^,]+') do  -- simple arguments: no commas inside them
    a = a:match('^%s*(.-)%s*$'):gsub('%f[%w]True%f[^%w]', 'true'):gsub('%f[%w]False%f[^%w]', 'false')
    local k, v = a:match('^([%a_][%w_]*)%s*=%s*(.+)$')
    if not k or k == 'device_type' then pos[#pos + 1] = v or a else kw[#kw + 1] = k .. '=' .. v end
  end
  if #kw > 0 then pos[#pos + 1] = '{' .. table.concat(kw, ', ') .. '}' end
  local a = table.concat(pos, ', ')
  return ('use %s(%sfunction() ... end), or `local _ <close> = %s(%s)` inside a do ... end block'):format(
    call, a ~= '' and a .. ', ' or '', call, a)
end

-- {what, test(ctx) -> true or a hint string, hint}; `syntax = true`: only for a
-- syntax error (the habit cannot compile). The order matters.
R.hints = {
  {'def', syntax = true, function(c) return S(c):match('^%s*def%s') or S(c):match('\n%s*def%s') end,
   'Lua defines functions as `function f(x) ... end` (or local f = function(x) ... end)'},
  {'lambda', syntax = true, function(c) return S(c):match('%f[%w_]lambda%f[^%w_]') end,
   'Lua writes an anonymous function as function(x) return x * 2 end'},
  {'import', syntax = true, function(c) return S(c):match('^%s*import%s') or S(c):match('^%s*from%s+[%w_.]+%s+import') end,
   'torch, nn, F (nn.functional) and optim are already loaded: no import needed (require loads Lua modules)'},
  {'class', syntax = true, function(c) return S(c):match('^%s*class%s') end,
   "subclass with local Net = nn.Module:extend('Net') and define function Net:forward(x) ... end"},
  {'with', syntax = true, function(c) return S(c):match('^%s*with%s') and with_hint(c.cell) end},
  {'try', syntax = true, function(c) return S(c):match('^%s*try%s*:') or S(c):match('%f[%w_]except%f[^%w_]') end,
   'Lua catches errors with pcall: local ok, err = pcall(f, ...)'},
  {'raise', syntax = true, function(c) return S(c):match('^%s*raise%s') end, "Lua raises errors with error('message')"},
  {'pass', function(c) return S(c):match('%f[%w_]pass%s*$') end, 'Lua needs no pass: an empty block is fine'},
  {'del', syntax = true, function(c) return S(c):match('^%s*del%s') end, 'Lua deletes a variable by setting it to nil: x = nil'},
  {'global', syntax = true, function(c) return S(c):match('^%s*global%s') or S(c):match('^%s*nonlocal%s') end,
   'Lua variables are global unless declared local: no global statement needed'},
  {'f-string', function(c) return c.cell:match('%f[%w_]f"') or c.cell:match("%f[%w_]f'") end,
   "Lua has no f-strings: use string.format('x = %s', x) or ('x = %s'):format(x)"},
  {'docstring', syntax = true, function(c) return c.cell:find('"""', 1, true) or c.cell:find("'''", 1, true) end,
   'Lua writes long strings as [[ ... ]] and comments as -- or --[[ ... ]]'},
  {'matmul @', syntax = true, function(c) return S(c):find('@', 1, true) end,
   'Lua has no @ operator: use torch.matmul(a, b) or a:matmul(b)'},
  {'x:field', syntax = true, function(c)
     local obj, name = S(c):match('([%a_][%w_%.%]%)]*):([%a_][%w_]*)%s*$')
     if obj and c.msg:find('function arguments expected', 1, true) then
       return ('%s:%s calls a method; read a field with a dot: %s.%s'):format(obj, name, obj, name)
     end
   end},
  {'[0] on a table', function(c)
     if c.msg:find('attempt to index a nil value', 1, true) and strip_strings(c.line):find('[0]', 1, true) then
       return "Lua tables count from 1: t[1] is Python's t[0] (tensors, dims and nn.Sequential count from 0)"
     end
   end},
  {'elif', syntax = true, function(c) return S(c):match('%f[%w_]elif%f[^%w_]') end, 'Lua writes elseif'},
  {'else if', syntax = true, function(c) return S(c):match('%f[%w_]else%s+if%f[^%w_]') and c.msg:find("'end' expected") end,
   'Lua writes elseif as one word (else if opens a second if that needs its own end)'},
  {'is None', syntax = true, function(c) return S(c):match('%f[%w_]is%s+not%s+None') or S(c):match('%f[%w_]is%s+None') end,
   'Lua compares with == nil and ~= nil'},
  {'!=', syntax = true, function(c) return S(c):find('!=', 1, true) end, "Lua writes 'not equal' as ~="},
  {'+=', syntax = true, function(c) return S(c):match('[%+%-%*/%%]=') and not S(c):match('[~<>=]=') end,
   'Lua has no +=: write x = x + 1 (a tensor in place: x:add_(1))'},
  {'&& ||', syntax = true, function(c) return S(c):find('&&', 1, true) or S(c):find('||', 1, true) end,
   'Lua writes and, or, not'},
  {'! for not', syntax = true, function(c) return S(c):match('[%(%s=]![%a_(]') end, 'Lua writes not x'},
  {'ternary', syntax = true, function(c) return S(c):match('%f[%w_]if%f[^%w_].-%f[%w_]else%f[^%w_]') and not S(c):match('then') end,
   'Lua writes `a if c else b` as c and a or b'},
  {'comprehension', function(c) return S(c):match('%[[^%]]-%sfor%s[^%]]-%sin%s') end,
   'Lua has no comprehensions: local out = {} for i, v in ipairs(t) do out[#out + 1] = v * 2 end'},
  {'for in range', function(c) return S(c):match('for%s+[%w_]+%s+in%s+range%s*%(') end,
   'Lua counts with `for i = 0, n - 1 do ... end` (both ends included)'},
  {'for in list', function(c) return S(c):match('for%s+[%w_]+%s+in%s+[%w_.]+%s*:?%s*$') end,
   'Lua iterates a table with `for i, v in ipairs(t) do ... end`'},
  {'colon block', syntax = true, function(c)
     return c.msg:find("'then' expected near ':'", 1, true) or c.msg:find("'do' expected near ':'", 1, true) or S(c):match('^%s*if%s.-:%s*$') or S(c):match('^%s*while%s.-:%s*$') or S(c):match('^%s*for%s.-:%s*$')
       or S(c):match('^%s*else%s*:') or S(c):match('\n%s*if%s.-:%s*\n')
   end, 'Lua blocks are `if c then ... end`, `while c do ... end`, `for ... do ... end`: no colon, no indentation'},
  {'print x', syntax = true, function(c) return S(c):match('^%s*print%s+[^%s(=]') end, 'print is a function in Lua: print(x)'},
  {'print end=', function(c) return S(c):match('print%s*%(.-[,%s]end%s*=') or S(c):match('print%s*%(.-[,%s]sep%s*=') end,
   "Lua's print has no end= or sep=: use io.write(a, b) for output without a newline"},
  {'**', syntax = true, function(c) return S(c):find('**', 1, true) end, 'Lua writes powers as x ^ 2 (tensors: x:pow(2) or x ^ 2)'},
  {'# comment', syntax = true, function(c) return S(c):match('[%w_%)%]]%s+#%s') or S(c):match('^%s*#%s') or S(c):match('^%s*#!') end,
   'Lua comments start with --'},
  {'list literal', syntax = true, function(c) return S(c):match('=%s*%[') or S(c):match('^%s*%[') or S(c):match('%(%s*%[') end,
   'Lua tables use braces: {1, 2, 3}'},
  {'dict literal', syntax = true, function(c) return S(c):match("{%s*['\"][^'\"]*['\"]%s*:") or S(c):match("{%s*''%s*:") end,
   "Lua tables use {a = 1} or {['a b'] = 1}"},
  {'slice', syntax = true, function(c) return S(c):match('%[%s*:') or S(c):match('%[[^%]]-:[^%]]-%]') end,
   "slices are strings in Python's syntax: x[':, 1'], x['1:3']"},
  {'keyword argument', syntax = true, function(c)
     if not (c.syntax and S(c):match('%(.-[%w_]%s*=%s*[^=]') and c.msg:find("')' expected")) then return nil end
     local fixed = keywords_in_table(c.line)
     if fixed then return 'Lua has no keyword arguments: options go in a trailing table: ' .. fixed end
     return 'Lua has no keyword arguments: options go in a trailing table, f(x, {dim=1}) or f{x, dim=1}'
   end},
  {'assert x, msg', syntax = true, function(c) return S(c):match('^%s*assert%s+[^(]') end, "Lua writes assert(cond, 'message')"},
  {'%% format', function(c)
     return (c.msg:find("attempt to mod a 'string'", 1, true) or c.msg:find('arithmetic on a string', 1, true))
       and c.cell:match("['\"]%s*%%")
   end, "Lua formats with string.format('%d', n) or ('%d'):format(n)"},
  {'string +', function(c)
     return c.msg:find("attempt to add a 'string'", 1, true) or c.msg:find('arithmetic on a string', 1, true)
   end, 'Lua joins strings with ..: "a" .. "b"'},
  {'append', function(c) return c.msg:find("'append'", 1, true) and S(c):match('[%.:]append%s*%(') end, 'Lua appends with table.insert(t, v) or t[#t + 1] = v'},
  {'tensor ==', tensor_eq_hint},
  {'table for tensor', function(c)
     -- nn.Linear(2, 1)({1, 2}), or x + {1, 2} (Note [Operator operands])
     if not (c.msg:find('must be Tensor, not list', 1, true) or c.msg:find("^TypeError: unsupported operand .*'list'")) then
       return nil
     end
     return 'a Lua table is not a tensor: torch.tensor({...}) makes one (and a batch {X, y} is read as batch[1], batch[2])'
   end},
  {'numpy()', function(c) return c.msg:find("object has no attribute 'numpy'", 1, true) end,
   'there is no NumPy here: x:tolist() gives Lua tables, x:tobytes() the raw bytes (torch.frombuffer reads them back)'},
  {'shape()', function(c) return c.msg:match("attempt to call a [%w_.]+ value %(field 'shape'%)") end,
   'x.shape is a field, not a method: x.shape (or x:size())'},
  {'field()', function(c)  -- x:is_cuda(), x.T(): a field called as a method
     local name = c.msg:match("attempt to call a [%w_.]+ value %(method '([%w_]+)'%)")
       or c.msg:match("attempt to call a [%w_.]+ value %(field '([%w_]+)'%)")
     for _, f in ipairs(name and getmetatable(torch.ones(0)).__fields or {}) do
       if f == name then return ('x.%s is a field (a property in PyTorch), not a method: write x.%s'):format(f, f) end
     end
   end},
  {'.item without ()', function(c)
     local f = c.msg:match("on a function value %(field '([%w_]+)'%)") or c.msg:match("on a function value %(method '([%w_]+)'%)")
     if f then return "x." .. f .. " is the method itself: call it, x:" .. f .. "()" end
   end},
  {'. for :', function(c)
     local obj, name = dot_call(c)
     if obj then return "call methods with ':' in Lua: " .. obj .. ':' .. name .. '(...)' end
   end},
  {'pair index', function(c)  -- out:max(1)[1] (Note [Indexing a pair of results]): the line as it reads here
     local fname, first, second = c.msg:match("^TypeError: ([%w_]+)%(%.%.%.%)%[i%]: [%w_]+ returns ([%w_]+) and ([%w_]+) as two Lua results %(PyTorch's named tuple%)")
     if not fname then return nil end
     local fixed, n = c.line:gsub('(' .. fname .. '%s*%b())%s*%[%s*([01])%s*%]', function(call, i)
       return call .. '.' .. (i == '0' and first or second)
     end, 1)
     if n == 1 then return "PyTorch's [0] and [1] are ." .. first .. ' and .' .. second .. ' here: ' .. fixed:match('^%s*(.-)%s*$') end
   end},
  {'saved tensor changed', function(c) return c.msg:find('has been modified by an inplace operation', 1, true) end,
   'the backward reads a value its forward saved, and an in-place op (x:add_(), x[i] = v, an optimizer step) has '
     .. 'changed it since: change a copy (x = x + 1), or call backward first'},
  {'0-based index', function(c) return c.msg:match('index %-?%d+ is out of bounds for dimension') end,
   'indices count from 0, as in PyTorch: the last of n is n - 1 (or -1); Lua tables count from 1'},
  {'top-level local', function(c)
     local cell = c.name and R.local_cell(c.name)
     if cell then
       return ('`local %s` in %s ended with that input: at the prompt, write %s = ... without local'):format(c.name, cell, c.name)
     end
   end},
  {'python name', function(c) return c.name and python_names[c.name] end},
}

function R.hint(ctx)
  for _, rule in ipairs(R.hints) do
    local ok, got = false, nil
    if ctx.syntax or not rule.syntax then ok, got = pcall(rule[2], ctx) end
    if ok and got then
      if type(got) == 'string' and rule[3] == nil then return got end
      return rule[3]
    end
  end
  return nil
end
