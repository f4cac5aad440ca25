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

-- ---- did you mean (Python 3.12's traceback._compute_suggestion_error) ------
local function levenshtein(a, b, max_cost)
  if a == b then return 0 end
  local la, lb = #a, #b
  local prev = {}
  for j = 0, lb do prev[j] = j * 2 end
  for i = 1, la do
    local cur, ca, best = {[0] = i * 2}, a:sub(i, i), i * 2
    for j = 1, lb do
      local cb = b:sub(j, j)
      local sub = ca == cb and 0 or (ca:lower() == cb:lower() and 1 or 2)
      cur[j] = math.min(prev[j] + 2, cur[j - 1] + 2, prev[j - 1] + sub)
      if cur[j] < best then best = cur[j] end
    end
    if best > max_cost then return max_cost + 1 end
    prev = cur
  end
  return prev[lb]
end

-- The candidate nearest to `name`, or nil (candidates: a list of strings).
function U.suggest(name, candidates)
  if type(name) ~= 'string' or #name > 40 then return nil end
  local best, best_d
  for _, c in ipairs(candidates) do
    if type(c) == 'string' and c ~= name and #c <= 40 then
      local max_cost = (#name + #c + 3) * 2 // 6
      local d = levenshtein(name, c, max_cost)
      if d <= max_cost and (best_d == nil or d < best_d or (d == best_d and c < best)) then
        best, best_d = c, d
      end
    end
  end
  return best
end

local function keys_of(t, out, seen)
  out, seen = out or {}, seen or {}
  if type(t) == 'table' then
    for k in next, t do
      if type(k) == 'string' and not seen[k] and not k:match('^_') then
        seen[k] = true
        out[#out + 1] = k
      end
    end
  end
  return out, seen
end

local tensor_fields = {'shape', 'dtype', 'device', 'grad', 'grad_fn', 'requires_grad', 'is_leaf', 'T', 'mT',
                       'ndim', 'is_cuda', 'is_cpu', 'data', 'itemsize', 'nbytes', 'retains_grad'}

-- Names an object answers to: a tensor's methods and fields, a table's keys
-- and its class's methods.
local function names_of(obj)
  if U.is_tensor(obj) then
    local out, seen = keys_of(torch.Tensor)
    for _, f in ipairs(tensor_fields) do if not seen[f] then out[#out + 1] = f end end
    return out
  end
  local out, seen = keys_of(obj)
  -- objects of the Lua classes (nn modules, optimizers): their registries
  -- (parameters, buffers, submodules) and their class chain's methods
  if type(obj) == 'table' and U.class_of(obj) then
    for _, reg in ipairs({'_parameters', '_buffers', '_modules'}) do
      local od = rawget(obj, reg)
      if U.is_od(od) then
        for k in pairs(od) do
          if type(k) == 'string' and not seen[k] then seen[k] = true out[#out + 1] = k end
        end
      end
    end
    local cls = U.class_of(obj)
    for _ = 1, 16 do
      if type(cls) ~= 'table' then break end
      keys_of(cls, out, seen)
      cls = rawget(cls, 'super')
    end
  end
  local mt = getmetatable(obj)
  for _ = 1, 8 do
    if type(mt) ~= 'table' then break end
    keys_of(mt.__methods, out, seen)
    local idx = rawget(mt, '__index')
    if type(idx) ~= 'table' then break end
    keys_of(idx, out, seen)
    mt = getmetatable(idx)
  end
  return out
end

-- A namespace (torch, nn, math): a plain table of functions and tables.
local function is_namespace(t)
  if type(t) ~= 'table' or getmetatable(t) ~= nil or #t > 0 then return false end
  local fns, n = 0, 0
  for _, v in next, t do
    n = n + 1
    if type(v) == 'function' then fns = fns + 1 end
  end
  return fns > 0 and n >= 4
end

-- The dotted global name of a table (torch.cuda), by a short walk of _G.
local function name_of(t)
  for k, v in next, _G do
    if v == t then return k end
  end
  for k, v in next, _G do
    if type(v) == 'table' and k ~= '_G' and k ~= 'package' then
      for k2, v2 in next, v do
        if v2 == t and type(k2) == 'string' then return k .. '.' .. k2 end
        if type(v2) == 'table' and type(k2) == 'string' and not k2:match('^_') then
          for k3, v3 in next, v2 do
            if v3 == t and type(k3) == 'string' then return k .. '.' .. k2 .. '.' .. k3 end
          end
        end
      end
    end
  end
end

-- ---- names visible in a frame ----------------------------------------------
local function visible(level)
  local vars = {}
  if level then
    for i = 1, 250 do
      local name, value = debug.getlocal(level, i)
      if name == nil then break end
      if not name:match('^%(') then vars[name] = {value} end
    end
    local info = debug.getinfo(level, 'f')
    if info and info.func then
      for i = 1, 250 do
        local name, value = debug.getupvalue(info.func, i)
        if name == nil then break end
        if name ~= '_ENV' and vars[name] == nil then vars[name] = {value} end
      end
    end
  end
  return vars
end

-- Resolves `a.b.c` in a frame (locals, upvalues, then globals); nil if it cannot.
local function resolve(path, vars)
  vars = vars or {}
  local v
  for part in path:gmatch('[^.]+') do
    if v == nil then
      if vars[part] then v = vars[part][1] else v = rawget(_G, part) end
    else
      if type(v) ~= 'table' and not U.is_tensor(v) then return nil end
      local ok, got = pcall(function() return v[part] end)
      if not ok then return nil end
      v = got
    end
    if v == nil then return nil end
  end
  return v
end

local function global_names(vars)
  local out, seen = keys_of(_G)
  for name in pairs(vars or {}) do
    if not seen[name] then out[#out + 1] = name end
  end
  return out
end

local function with_suggestion(text, name, candidates)
  local s = U.suggest(name, candidates)
  return s and (text .. ". Did you mean: '" .. s .. "'?") or text
end

function R.name_error(name, vars)
  return with_suggestion("NameError: name '" .. name .. "' is not defined", name, global_names(vars))
end

-- ---- rewriting Lua's messages ----------------------------------------------
-- Returns the new message and the name to put a caret under (or nil).
local function explain(msg, line, vars)
  local body = msg:gsub('^[^\n]-:%d+: ', '', 1)
  local global = body:match("^attempt to %a+ a nil value %(global '([%w_]+)'%)")
  if global then return R.name_error(global, vars), global, global end
  local field = body:match("^attempt to call a nil value %(field '([%w_]+)'%)")
    or body:match("^attempt to index a nil value %(field '([%w_]+)'%)")
  if field and line then
    local path = line:match('([%a_][%w_%.]*)%.' .. field .. '%f[^%w_]')
    local obj = path and resolve(path, vars)
    if obj ~= nil then
      local owner
      if is_namespace(obj) then
        owner = "module '" .. (name_of(obj) or path) .. "'"
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
  local i = 0
  for l in (src .. '\n'):gmatch('(.-)\r?\n') do
    i = i + 1
    if i == n then return l end
  end
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
