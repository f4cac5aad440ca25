-- help(): doc strings for everything bound, module listings, a tensor's
-- methods by group, `?name` / `name?` (the REPL turns them into help('name')),
-- and names that do not exist reported as such, with a suggestion.
-- The doc table is the one that torch._doc reads (C++ doc strings, and
-- bindings/lua/90_docs.lua for the functions written in Lua).
local function first_line(s) return (s or ''):match('[^\n]*') end

local intro = [[
gpulab: PyTorch-style tensors with CUDA devices, in Lua.

  x = torch.tensor({1, 2, 3}, {device='cuda'})   -- options as a trailing table
  y = torch.ones{2, 3, device='cuda:1'}          -- or one table mixing both
  x:cuda(1), x:to('cpu'), x.device, x.shape      -- methods with ':', fields with '.'
  Indices and dims count from 0, as in PyTorch: x[0], x:sum(0), net[0].
  Slices are strings in Python's syntax: x[':, 1'], x['1:3'].
  `==` on tensors is identity (Python's `is`); use x:eq(y) for values.

At the prompt:
  expr          echoes its value, as Python does; a trailing ; hides it
  _, __, ___    the last three values echoed             Out[N], _N: what In[N] echoed
  ?name, name?  help for a name: ?torch.zeros, x:sum?   help(x) for a tensor's methods
  dir(x)        the names x answers to, sorted           dir(nn.init), dir() for the globals
  Tab           completes names, fields and methods     Up/Down, Ctrl-R: history
  !cmd          runs a shell command                    %time stmt, %timeit stmt: timing
  %who, %whos   your variables (%who Tensor: by type)   Ctrl-C interrupts, Ctrl-D leaves

help(torch), help(torch.cuda), help(nn), help(torch.zeros), help(x) for a tensor's methods.
Lessons: run `gpulab lessons` in a shell. No GPU? torch.cuda.use_virtual(2) before the
first CUDA use (or start gpulab with --virtual-gpus 2). Timing: time.timeit(f).
Exercises: `gpulab exercise NAME` copies one, `gpulab check FILE` grades it.
Data: help(torchvision.datasets.FashionMNIST), help(torchvision.transforms); the d2l book's
helpers: help(d2l).]]

-- Text longer than the terminal goes through $PAGER (or less -R) when stdout
-- is a terminal; piped output is printed plainly.
local function show(text)
  local rows = torch._tty_rows and torch._tty_rows()
  if rows then
    local n = select(2, text:gsub('\n', '')) + 1
    if n >= rows then
      local pager = os.getenv('PAGER')
      if pager == nil or pager == '' then pager = 'less -R' end
      io.stdout:flush()
      local p = io.popen(pager, 'w')
      if p then
        p:write(text, '\n')
        if p:close() then return end
      end
    end
  end
  print(text)
end

local function list(t, title)
  local names = {}
  for k in pairs(t) do
    if type(k) == 'string' and not k:match('^_') then names[#names + 1] = k end
  end
  table.sort(names)
  if #names == 0 then return '' end  -- a class without members of its own (torch.finfo)
  local out = {title}
  for _, k in ipairs(names) do
    local v = t[k]
    local d = type(v) == 'function' and torch._doc(v) or nil
    local kind = type(v) == 'table' and '(module)' or ''
    out[#out + 1] = string.format('  %-24s %s', k, d and first_line(d) or kind)
  end
  return table.concat(out, '\n')
end

-- A tensor's methods, grouped as a learner looks for them; names in columns.
local groups = {
  {'creation and conversion', {'clone', 'detach', 'detach_', 'contiguous', 'new_zeros', 'new_ones', 'new_full',
    'new_empty', 'new_tensor', 'zeros_like', 'ones_like', 'tolist', 'item', 'float', 'double', 'half', 'bfloat16',
    'long', 'int', 'short', 'char', 'byte', 'bool', 'type', 'type_as', 'copy_', 'fill_', 'zero_', 'numpy'}},
  {'devices and memory', {'to', 'cpu', 'cuda', 'get_device', 'is_contiguous', 'pin_memory', 'is_pinned',
    'data_ptr', 'element_size', 'storage_offset', 'stride', 'untyped_storage', 'record_stream'}},
  {'shape and views', {'view', 'view_as', 'reshape', 'reshape_as', 'permute', 'transpose', 't', 'squeeze',
    'unsqueeze', 'flatten', 'unflatten', 'expand', 'expand_as', 'repeat', 'narrow', 'select', 'split', 'chunk',
    'unbind', 'flip', 'fliplr', 'flipud', 'roll', 'tile', 'size', 'dim', 'numel', 'nelement', 'index_select',
    'gather', 'scatter', 'scatter_',
    'masked_fill', 'masked_fill_', 'masked_select', 'movedim', 'swapaxes', 'tril', 'triu', 'diag', 'diagonal',
    'index_add_', 'index_fill_', 'index_copy_', 'put_', 'take', 'nonzero', 'unfold'}},
  {'reductions', {'sum', 'mean', 'prod', 'max', 'min', 'amax', 'amin', 'argmax', 'argmin', 'std', 'var', 'norm',
    'all', 'any', 'cumsum', 'cumprod', 'logsumexp', 'median', 'mode', 'count_nonzero', 'nansum', 'aminmax'}},
  {'linear algebra', {'matmul', 'mm', 'bmm', 'mv', 'dot', 'outer', 'addmm', 'baddbmm', 'inverse', 'det'}},
  {'comparison', {'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equal', 'allclose', 'isclose', 'isnan', 'isinf',
    'isfinite', 'where', 'maximum', 'minimum', 'sort', 'topk', 'eq_', 'ne_', 'lt_', 'le_', 'gt_', 'ge_'}},
  {'autograd', {'backward', 'requires_grad_', 'retain_grad', 'register_hook', 'grad', 'is_leaf'}},
}
local group_of = {}
for i, g in ipairs(groups) do
  for _, name in ipairs(g[2]) do group_of[name] = i end
end

local function columns(names, width)
  local out, line = {}, '   '
  for _, n in ipairs(names) do
    if #line + #n + 1 > width and line ~= '   ' then
      out[#out + 1] = line
      line = '   '
    end
    line = line .. ' ' .. n
  end
  if line ~= '   ' then out[#out + 1] = line end
  return table.concat(out, '\n')
end

local function tensor_help()
  local buckets, math_names, other = {}, {}, {}
  for i = 1, #groups do buckets[i] = {} end
  for k, v in pairs(torch.Tensor) do
    if type(k) == 'string' and not k:match('^_') and type(v) == 'function' then
      local base = k:gsub('_$', '')
      local g = group_of[k] or group_of[base]
      if g then
        table.insert(buckets[g], k)
      elseif rawget(torch, base) ~= nil or rawget(torch, k) ~= nil then
        math_names[#math_names + 1] = k  -- elementwise math: also torch.NAME
      else
        other[#other + 1] = k
      end
    end
  end
  local out = {'Tensor methods, called as x:name(...) (fields with a dot: x.shape, x.dtype, x.device,',
               'x.grad, x.requires_grad, x.T); help(x.name) or ?x.name documents one:'}
  local function add(title, names)
    if #names == 0 then return end
    table.sort(names)
    out[#out + 1] = ''
    out[#out + 1] = title .. ':'
    out[#out + 1] = columns(names, 78)
  end
  for i, g in ipairs(groups) do
    if i == 4 then add('elementwise math (a trailing _ works in place)', math_names) end
    add(g[1], buckets[i])
  end
  add('other', other)
  return table.concat(out, '\n')
end

-- Every dotted name a learner reaches (for suggestions): torch.zeros, nn.Linear, ...
local function all_names()
  local out = {}
  local function add(t, prefix, depth)
    for k, v in pairs(t) do
      if type(k) == 'string' and not k:match('^_') and k:match('^[%a_][%w_]*$') then
        out[#out + 1] = prefix .. k
        if depth > 0 and type(v) == 'table' and getmetatable(v) == nil and v ~= _G then add(v, prefix .. k .. '.', depth - 1) end
      end
    end
  end
  add(_G, '', 2)
  return out
end

-- help('torch.zeros'), help('x:sum'): the value a name stands for, looked up
-- in the globals; nil and a message when it does not exist.
local function lookup(name)
  local v = _G
  local done = ''
  for sep, part in ('.' .. name):gmatch('([.:])([^.:]+)') do
    if type(v) ~= 'table' and not torch.is_tensor(v) then return nil end
    local ok, got = pcall(function() return v[part] end)
    if not ok or got == nil then
      local msg = ("help: no such name: '%s'"):format(done == '' and part or (done .. sep .. part))
      local s = torch._util and torch._util.suggest and torch._util.suggest(name, all_names())
      if v ~= _G and torch._util and torch._util.suggest then
        local keys = {}
        if torch.is_tensor(v) then
          for k in pairs(torch.Tensor) do keys[#keys + 1] = k end
        else
          for k in pairs(v) do if type(k) == 'string' then keys[#keys + 1] = k end end
        end
        local p = torch._util.suggest(part, keys)
        s = p and (done .. sep .. p) or s
      end
      return nil, s and (msg .. ". Did you mean: '" .. s .. "'?") or msg
    end
    v = got
    done = done == '' and part or (done .. sep .. part)
  end
  return v
end

-- help(torch.zeroes) receives nil: find the argument in the cell's source.
local function nil_argument()
  local repl = torch._util and torch._util.repl
  local src = repl and repl.current and repl.current() or ''
  local name = src:match('help%s*%(%s*([%a_][%w_.:]*)%s*%)')
  if name then
    local v, msg = lookup(name)
    if v == nil then return msg or ("help: '" .. name .. "' is nil") end
  end
  return 'help: the argument is nil (an undefined name?); help() explains the conventions'
end

-- The example of a function or class (90_docs.lua, 92_doc_examples.lua), run
-- now so that its output is this build's (random draws under a saved and
-- restored CPU generator); those with effects are shown with the reason they
-- are not run.
local function example_of(fn)
  local U = torch._util
  local code = U and U.examples and U.examples[fn]
  if not code then return '' end
  local why = U.examples_not_run and U.examples_not_run[fn]
  if why then return '\n\nExample (' .. why .. '):\n>>> ' .. code end
  local chunk = load('return ' .. code, '=example')
  local ok, text, printed = false, nil, {}
  if chunk then
    local print0 = print  -- what the example prints goes under it, not above the doc
    print = function(...)
      local parts = table.pack(...)
      for i = 1, parts.n do parts[i] = tostring(parts[i]) end
      printed[#printed + 1] = table.concat(parts, '\t', 1, parts.n)
    end
    -- an example that draws random numbers leaves the learner's stream where it was
    local state = torch._rng_state and torch._rng_state()
    local res = table.pack(pcall(chunk))
    if state then torch._rng_state(state) end
    print = print0
    if res[1] then ok, text = pcall(torch._echo, table.unpack(res, 2, res.n)) end
  end
  if ok and text ~= '' then printed[#printed + 1] = text end
  local out = table.concat(printed, '\n')
  return '\n\nExample:\n>>> ' .. code .. (out ~= '' and ('\n' .. out) or '')
end

function help(...)
  local x = ...
  if select('#', ...) == 0 then show(intro) return end
  if x == nil then print(nil_argument()) return end
  if type(x) == 'string' and x:match('^[%a_][%w_]*[%w_.:]*$') then
    local v, msg = lookup(x)
    if v == nil then print(msg) return end
    x = v
  end
  if type(x) == 'function' then
    if x == help then show(intro) return end
    show((torch._doc(x) or 'no documentation for this function') .. example_of(x))
  elseif torch.is_tensor(x) then
    show(tensor_help())
  elseif type(x) == 'table' then
    local mt = getmetatable(x)
    local text = mt and mt.__doc and (mt.__doc .. '\n') or ''
    local contents = list(x, 'Contents:')
    show((contents == '' and text:gsub('\n$', '') or text .. contents) .. example_of(x))
  else
    print('help: no documentation for a ' .. type(x))
  end
end

debug.getregistry()['gpulab.help'] = help
debug.getregistry()['gpulab.help_intro'] = intro
