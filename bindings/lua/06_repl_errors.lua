-- The REPL's errors, explained while the failing frames still exist: a
-- traceback trimmed to the user's own cells (In[N]) and script files, the
-- offending line with a caret where the position is known, Python 3.12's
-- NameError / AttributeError wording with "Did you mean", and a one-line
-- `hint:` for a Python habit (the rules live in 06_repl_hints.lua).
-- interpreter/evaluate.cpp calls these through registry['gpulab.repl'].
local U = torch._util
-- The learner's cells may reassign any global: hold on to what is used here.
local pcall, debug, ipairs, pairs, next, type, tostring, tonumber = pcall, debug, ipairs, pairs, next, type, tostring, tonumber
local getmetatable, rawget, math, table, string, io, load, torch, _G = getmetatable, rawget, math, table, string, io, load, torch, _G
local R = {}
debug.getregistry()['gpulab.repl'] = R
U.repl = R

local cells = {}        -- chunk name ('In[3]') -> source, for tracebacks
local cell_locals = {}  -- name declared `local` at a cell's top level -> that cell

local names_of, is_namespace, name_of = U.names_of, U.is_namespace, U.name_of
local visible, resolve, global_names, with_suggestion = U.visible, U.resolve, U.global_names, U.with_suggestion

function R.name_error(name, vars)
  return with_suggestion("NameError: name '" .. name .. "' is not defined", name, global_names(vars))
end

-- ---- rewriting Lua's messages ----------------------------------------------
-- Returns the new message and the name to put a caret under (or nil).
local function explain(msg, line, vars)
  local body = msg:gsub('^[^\n]-:%d+: ', '', 1)
  local global = body:match("^attempt to %a+ a nil value %(global '([%w_]+)'%)")
  if global then return R.name_error(global, vars), global, global end
  local field = body:match("^attempt to %a+ a nil value %(field '([%w_]+)'%)")
  if field and line then
    local path = line:match('([%a_][%w_%.]*)%.' .. field .. '%f[^%w_]')
    local obj = path and resolve(path, vars)
    if obj ~= nil then
      local owner
      if is_namespace(obj) then
        owner = "module '" .. (U.module_name(obj) or path) .. "'"
      elseif type(obj) == 'table' and getmetatable(obj) and U.class_of(obj) then
        owner = "'" .. tostring(U.class_of(obj).__name) .. "' object"
      end
      if owner then
        return with_suggestion('AttributeError: ' .. owner .. " has no attribute '" .. field .. "'", field,
          names_of(obj)), '.' .. field
      end
      local s = U.suggest(field, names_of(obj))
      if s then return msg .. ". Did you mean: '" .. s .. "'?", '.' .. field end
    end
    return msg, '.' .. field
  end
  local method = body:match("^attempt to call a nil value %(method '([%w_]+)'%)")
  if method and line then
    local path = line:match('([%a_][%w_%.]*):' .. method .. '%f[^%w_]')
    local obj = path and resolve(path, vars)
    if type(obj) == 'table' and U.class_of(obj) then
      return with_suggestion("AttributeError: '" .. tostring(U.class_of(obj).__name) .. "' object has no attribute '"
        .. method .. "'", method, names_of(obj)), ':' .. method
    end
    if obj ~= nil then return with_suggestion(msg, method, names_of(obj)), ':' .. method end
    return msg, ':' .. method
  end
  local attr = body:match("^AttributeError: 'Tensor' object has no attribute '([%w_]+)'$")
  if attr then return with_suggestion(msg, attr, names_of(torch.ones(1))), '.' .. attr end
  return msg
end

-- ---- source lines and carets -----------------------------------------------
local function cell_line(source, n)
  local src
  if source:match('^=In%[') then
    src = cells[source:sub(2)]
  elseif source:match('^@') then
    local f = io.open(source:sub(2))
    if f then src = f:read('a') f:close() end
  end
  if not src or not n or n < 1 then return nil end
  -- A cell's value is echoed through `(function(...) return ... end)(cell\n)`,
  -- whose last line (the `)`) an error in the cell's last expression may name.
  local i, last = 0, nil
  for l in (src .. '\n'):gmatch('(.-)\r?\n') do
    i = i + 1
    if i == n then return l end
    last = l
  end
  if source:match('^=In%[') and n == i + 1 then return last end
end

local function caret_under(line, what)
  if not what or not line then return nil end
  local s, e
  if what:match('^[%a_]') then
    s, e = line:find('%f[%w_]' .. what:gsub('%p', '%%%0') .. '%f[^%w_]')
  else
    s, e = line:find(what, 1, true)
    if s then s = s + 1 end  -- under the name, not the '.' or ':'
  end
  if not s then return nil end
  local indent = line:match('^%s*')
  -- Python leaves out a caret that would underline the whole line (`foo` alone).
  if s == #indent + 1 and not line:sub(e + 1):match('%S') then return nil end
  return string.rep(' ', s - 1 - #indent) .. string.rep('^', e - s + 1)
end

local function frame_label(f)
  return ('  %s, line %d, in %s'):format(f.source:gsub('^[=@]', ''), f.line, f.name)
end

local function same(a, b)
  return a and b and not a.skipped and not b.skipped and a.source == b.source and a.line == b.line and a.name == b.name
end

local function format_error(msg, frames, caret_of, cell_src, hint)
  local out = {}
  local multiline = cell_src and cell_src:find('\n') ~= nil
  local full = #frames >= 2
  if full then out[#out + 1] = 'Traceback (most recent call last):' end
  local repeated = 0
  for i = #frames, 1, -1 do
    local f = frames[i]
    -- Python's rule: a frame repeated more than 3 times is counted, not shown.
    if same(f, frames[i + 1]) then repeated = repeated + 1 else repeated = 0 end
    local last_of_run = not same(f, frames[i - 1])
    if f.skipped then
      out[#out + 1] = ('  [%d more frames not read]'):format(f.skipped)
    elseif repeated >= 3 then
      if last_of_run then out[#out + 1] = ('  [Previous line repeated %d more times]'):format(repeated - 2) end
    else
      local text = cell_line(f.source, f.line)
      local caret = i == 1 and caret_under(text, caret_of) or nil
      if full or multiline or caret then
        if full or multiline then out[#out + 1] = frame_label(f) end
        if text then
          out[#out + 1] = '    ' .. text:gsub('^%s+', '')
          if caret then out[#out + 1] = '    ' .. caret end
        end
      end
    end
  end
  out[#out + 1] = msg
  if hint and not msg:find('\nhint:') then out[#out + 1] = 'hint: ' .. hint end
  return table.concat(out, '\n')
end

-- A function's global name, for frames Lua cannot name (reached by a tail call).
local function global_key(fn)
  for k, v in next, _G do
    if v == fn and type(k) == 'string' then return k end
  end
  return '<function>'
end

local function user_source(s)
  return s and (s:match('^=In%[') or s:match('^@')) ~= nil
end

-- The message handler of a cell: runs with the failing frames on the stack.
function R.handler(msg)
  if msg == 'KeyboardInterrupt' then return msg end
  local ok, text = pcall(function()
    if type(msg) ~= 'string' then
      local mt = getmetatable(msg)
      msg = mt and mt.__tostring and tostring(msg) or ('(error object is a %s value)'):format(type(msg))
    end
    local frames, level0 = {}, nil
    -- level 1 is this closure, 2 pcall's C side; the handler itself is 3.
    -- The stack's depth by doubling and bisection (a stack overflow holds
    -- ~200000 frames: only the innermost 40 and the outermost 20 are read).
    local lo, hi = 4, 8
    while debug.getinfo(hi, 'l') do lo, hi = hi, hi * 2 end
    while hi - lo > 1 do
      local mid = (lo + hi) // 2
      if debug.getinfo(mid, 'l') then lo = mid else hi = mid end
    end
    local function add(level)
      local info = debug.getinfo(level, 'Sln')
      if info and user_source(info.source) then
        if not level0 then level0 = level end
        frames[#frames + 1] = {source = info.source, line = info.currentline,
                               name = info.what == 'main' and '<module>' or info.name or global_key(info.func)}
      end
    end
    for level = 4, math.min(lo, 43) do add(level) end
    if lo > 63 then frames[#frames + 1] = {skipped = lo - 63} end
    for level = math.max(44, lo - 19), lo do add(level) end
    local line = frames[1] and cell_line(frames[1].source, frames[1].line)
    -- the failing user frame's locals and upvalues (visible: 1, this closure: 2)
    local vars = level0 and visible(level0 + 1) or {}
    local new, caret_of, missing = explain(msg, line, vars)
    local cell_src = frames[1] and frames[1].source:match('^=In%[') and cells[frames[1].source:sub(2)]
    local hint = R.hint{msg = msg, line = line or '', cell = cell_src or '', name = missing, vars = vars}
    return format_error(new, frames, caret_of, cell_src, hint)
  end)
  if ok then return text end
  return msg
end

-- The hint for an error of a script (`gpulab FILE`), whose traceback stays
-- lua.c's: the innermost frame of a learner's file gives the line and the
-- names in scope; the REPL's hint table does the rest. Runs in the message
-- handler, while the failing frames still exist.
function R.script_hint(msg)
  if type(msg) ~= 'string' then return nil end
  for level = 2, 80 do
    local info = debug.getinfo(level, 'Sl')
    if not info then return nil end
    if info.source:sub(1, 1) == '@' and info.currentline > 0 then
      local line = cell_line(info.source, info.currentline)
      if not line then return nil end
      return R.hint{msg = msg, line = line, cell = line, vars = visible(level + 1)}
    end
  end
end

-- A syntax error of a cell: the line and a caret under the token, and a hint.
function R.syntax(msg, src)
  local n = tonumber(msg:match('^[^\n]-:(%d+):')) or 1
  local line, above, i = nil, {}, 0
  for l in (src .. '\n'):gmatch('(.-)\r?\n') do
    i = i + 1
    if i < n then above[#above + 1] = l .. '\n' end
    if i == n then line = l end
  end
  local near = msg:match("near '(.-)'$")
  local out = {}
  if line and near then
    -- Lua names the token, not its column: the caret goes under the first
    -- occurrence where the code up to it fails as the whole cell does.
    local head, word = table.concat(above), near:match('^[%a_]') ~= nil
    local pos, init = nil, 1
    while true do
      local s = line:find(near, init, true)
      if not s then break end
      local whole = not word or not (line:sub(s - 1, s - 1):match('[%w_]') or line:sub(s + #near, s + #near):match('[%w_]'))
      if whole then
        pos = pos or s
        local _, err = load(head .. line:sub(1, s + #near - 1), '=cell')
        if err and err:find("near '" .. near .. "'", 1, true) then pos = s break end
      end
      init = s + 1
    end
    if pos then
      local indent = #line:match('^%s*')
      out[#out + 1] = '    ' .. line:gsub('^%s+', '')
      out[#out + 1] = '    ' .. string.rep(' ', pos - 1 - indent) .. string.rep('^', #near)
    end
  end
  out[#out + 1] = msg
  local hint = R.hint{msg = msg, line = line or src, cell = src, syntax = true}
  if hint then out[#out + 1] = 'hint: ' .. hint end
  return table.concat(out, '\n')
end

-- Before a cell runs: keep its source; note its top-level `local` names.
local current = ''
function R.current() return current end

function R.begin(name, src)
  name = name:gsub('^=', '')
  R.cell = name
  cells[name] = src
  current = src
  for l in (src .. '\n'):gmatch('(.-)\r?\n') do
    local names = l:match('^local%s+function%s+([%a_][%w_]*)') or l:match('^local%s+([%a_][%w_%s,]-)%s*=')
      or l:match('^local%s+([%a_][%w_%s,]-)%s*$')
    if names then
      for v in names:gmatch('[%a_][%w_]*') do cell_locals[v] = name end
    end
  end
  -- A later assignment makes the name a global again: forget it.
  for v in pairs(cell_locals) do
    if cell_locals[v] ~= name and rawget(_G, v) ~= nil then cell_locals[v] = nil end
  end
  return ''
end

function R.local_cell(name) return cell_locals[name] end

-- `foo` alone at the prompt with foo undefined: a NameError, not nil. In Lua,
-- assigning nil deletes a global, so `x = nil; x` is "not defined" too (like
-- Python's `del x`). `torch.zeroes` alone: AttributeError with a suggestion.
function R.echo_nil(src)
  src = src:match('^%s*(.-)%s*$')
  if src:match('^[%a_][%w_]*$') then
    if src == 'nil' then return nil end
    local hint = R.hint{msg = '', line = src, cell = src, name = src}
    return R.name_error(src, {}) .. (hint and ('\nhint: ' .. hint) or '')
  end
  local path, field = src:match('^([%a_][%w_%.]*)%.([%a_][%w_]*)$')
  if path then
    local obj = resolve(path, {})
    if obj == nil then
      local head = path:match('^[%a_][%w_]*')
      if rawget(_G, head) == nil then return R.name_error(head, {}) end
      return nil
    end
    if is_namespace(obj) then
      return with_suggestion("AttributeError: module '" .. (name_of(obj) or path) .. "' has no attribute '"
        .. field .. "'", field, names_of(obj))
    end
    if type(obj) == 'table' and U.class_of(obj) then  -- net.weigth
      return with_suggestion("AttributeError: '" .. tostring(U.class_of(obj).__name) .. "' object has no attribute '"
        .. field .. "'", field, names_of(obj))
    end
    return nil
  end
  return nil
end

-- Note [Tensor ==]: Lua calls __eq only for two objects and turns its result
-- into true or false, so `X == Y` on tensors can only ask whether they are the
-- same object (Python's `is`), and `X == 2` is always false: where PyTorch,
-- and d2l's section 2.1, would show a tensor of booleans, the REPL's echo is one
-- boolean. A cell that is just such a comparison of a tensor gets a line
-- naming the method that compares values: under its echo at the prompt, as
-- printed output above the result in a notebook.
function R.echo_note(src)
  src = src:match('^%s*(.-)%s*;?%s*$')
  local a, op, b = src:match('^([%a_][%w_%.]*)%s*([=~]=)%s*(.-)$')
  if not a or not (b:match('^[%a_][%w_%.]*$') or tonumber(b)) or b == 'nil' then return nil end
  local left, right = resolve(a, {}), tonumber(b) or resolve(b, {})
  if left == nil or right == nil then return nil end  -- nil == x is false in Python too
  if not U.is_tensor(left) then
    if not U.is_tensor(right) then return nil end
    a, b = b, a  -- n == X: the method is the tensor's, X:eq(n)
  end
  local asks = op == '==' and "== on tensors asks whether both sides are the same object (Python's `is`)"
    or "~= on tensors asks whether the two sides are different objects (Python's `is not`)"
  return ('hint: %s; PyTorch\'s %s %s %s compares values, which is %s:%s(%s) here'):format(asks, a,
    op == '==' and '==' or '!=', b, a, op == '==' and 'eq' or 'ne', b)
end
