-- The interpreter of fuzz_lua (see README.md): turns a byte string into a
-- sequence of calls over the whole Lua surface. Loaded once into the fuzzer's
-- Lua state; fuzz_lua.cpp calls FUZZ_RUN(bytes) for every input.
--
-- Every function and method is taken from the live tables (torch, torch.cuda,
-- nn, nn.functional, nn.init, torch.optim, torch.utils.data, torch.linalg,
-- the tensor methods and whatever objects the calls return), sorted by name so
-- that the same bytes always make the same calls. Each call runs under pcall:
-- a Lua error is a clean refusal; a crash, a sanitizer report or a hang is a
-- finding.
local tmpdir = ...  -- a scratch directory for torch.save/load paths

-- Every function of the surface is fair game but one: run_with_visible_devices
-- starts this program again with `-e code`, and here the program is fuzz_lua,
-- which takes `code` for a corpus and fuzzes forever (the tenth campaign's two
-- timeouts); in gpulab it runs the code and returns.
local SKIP = {['torch.cuda.run_with_visible_devices'] = true}
print = function() end  -- keep the fuzzer's output readable

-- Text of a tensor past 2^14 elements is not made: where no dimension is over
-- 6 (sixteen dims of 3: 43 million elements) PyTorch prints every element,
-- and so does gpulab, which took 15 s for one (a minute under ASan) and made
-- the long run's timeouts. Past 2^14 elements a text reaches no new code (the
-- same rows, widths and summaries); with the limit at 2^20, full texts of up
-- to a million elements were half of a grown corpus's time (tests/fuzz/README.md,
-- tenth campaign). Summarised prints of large tensors stay fuzzed. Plain
-- tables are looked into: the echo of a table prints the tensors in it.
-- The element count of a userdata answering numel() with an integer, or nil.
local function numel_of(v)
  if type(v) ~= 'userdata' then return nil end
  local ok, n = pcall(function() return v:numel() end)
  if ok and math.type(n) == 'integer' then return n end
  return nil
end
local function huge(v, depth)
  if type(v) == 'table' and getmetatable(v) == nil and (depth or 0) < 3 then
    for _, x in next, v do if huge(x, (depth or 0) + 1) then return true end end
    return false
  end
  local n = numel_of(v)
  return n ~= nil and n > (1 << 14)
end
local function printing(f)
  return function(...)
    for i = 1, select('#', ...) do if huge((select(i, ...))) then error('fuzz: text of a huge tensor') end end
    return f(...)
  end
end
tostring, repr = printing(tostring), printing(repr)
torch._echo = printing(torch._echo)
local tensor_methods = getmetatable(torch.ones(1)).__methods
tensor_methods.tolist = printing(tensor_methods.tolist)

local function sorted_functions(tbl, prefix, out)
  local names = {}
  for k, v in pairs(tbl) do
    if type(k) == 'string' and (type(v) == 'function' or (type(v) == 'table' and getmetatable(v)
        and getmetatable(v).__call)) and not SKIP[prefix .. k] then
      names[#names + 1] = k
    end
  end
  table.sort(names)
  for _, k in ipairs(names) do out[#out + 1] = {prefix .. k, tbl[k]} end
end

local FUNCS = {}
local spaces = {{torch, 'torch.'}, {torch.cuda, 'torch.cuda.'}, {nn, 'nn.'}, {nn.functional, 'nn.functional.'},
                {nn.init, 'nn.init.'}, {torch.optim, 'torch.optim.'}, {torch.utils.data, 'torch.utils.data.'},
                {torch.linalg, 'torch.linalg.'}}
for _, s in ipairs(spaces) do sorted_functions(s[1], s[2], FUNCS) end

-- Methods of an object: function-valued keys of its metatable's __index chain
-- (tensors: the Tensor metatable; modules, optimizers, loaders: Lua classes).
local method_cache = setmetatable({}, {__mode = 'k'})
local function methods_of(v)
  -- A string's methods are Lua's string library, not gpulab's: on the long
  -- strings the calls build, gsub and match ran for minutes in C (timeouts of
  -- the fifth and seventh campaigns that said nothing about gpulab).
  if type(v) == 'string' then return nil end
  local mt = getmetatable(v)
  if type(mt) ~= 'table' then return nil end
  local m = method_cache[mt]
  if m then return m end
  local seen, names = {}, {}
  -- Lua classes (modules, optimizers, datasets): the class and its parents;
  -- tensors: the methods table.
  local t, depth = rawget(mt, '__class') or rawget(mt, '__methods') or mt, 0
  while type(t) == 'table' and depth < 6 do
    for k, f in pairs(t) do
      if type(k) == 'string' and type(f) == 'function' and not seen[k] and not k:match('^__') then
        seen[k] = true
        names[#names + 1] = k
      end
    end
    local idx = rawget(t, '__index')
    if type(idx) ~= 'table' or idx == t then
      local mm = getmetatable(t)
      idx = mm and rawget(mm, '__index')
    end
    t, depth = idx, depth + 1
  end
  table.sort(names)
  method_cache[mt] = names
  return names
end

local DTYPES = {'float32', 'float64', 'float16', 'bfloat16', 'int64', 'int32', 'int16', 'int8', 'uint8', 'bool'}
local DEVICES = {'cpu', 'cuda:0', 'cuda:1'}
local INTS = {0, 1, 2, 3, -1, -2, 4, 5, 16, 17, 63, 64, 65, 100, 2^31 // 1, 2^62 // 1, math.maxinteger,
              math.mininteger, -100}
local FLOATS = {0.0, 0.5, -1.5, 1e-8, 3.0, 1e30, -1e30, 0 / 0, math.huge, -math.huge, 2.0 ^ 63}
local STRINGS = {'mean', 'sum', 'none', 'trunc', 'floor', 'cuda:1', 'cuda', 'cpu', 'float16', 'int64', 'junk', '',
                 'weight', 'fan_in', 'relu', 'leaky_relu', '...', 'None', ':', '0:2', tmpdir .. '/f.st',
                 tmpdir .. '/missing.st', tmpdir}
local KEYS = {'dim', 'keepdim', 'dtype', 'device', 'out', 'alpha', 'requires_grad', 'lr', 'momentum', 'batch_size',
              'shuffle', 'drop_last', 'weight_decay', 'bias', 'reduction', 'p', 'min', 'max', 'start_dim', 'end_dim',
              'diagonal', 'generator', 'map_location', 'strict', 'non_blocking', 'memory_format', 'unbiased',
              'correction', 'decimals', 'rounding_mode', 'betas', 'eps', 'nesterov', 'gain', 'mode', 'nonlinearity',
              'a', 'std', 'ignore_index', 'label_smoothing', 'weight', 'descending', 'stable', 'sorted', 'k',
              'largest', 'size', 'high', 'low', 'pin_memory', 'num_workers', 'collate_fn', 'junk'}

local bytes, pos, n = '', 1, 0
local function byte()
  if pos > n then return 0 end
  local b = bytes:byte(pos)
  pos = pos + 1
  return b
end
local function pick(list) return list[byte() % #list + 1] end

local pool = {}
local MAXPOOL = 48
-- A tensor past 2^20 elements is made, but not kept for the next steps
-- (tests/fuzz/README.md, tenth campaign): elementwise work over tens of
-- millions of elements under ASan was most of a grown corpus's time, and
-- reaches no code that a million elements does not. Views past 2^31 elements
-- (expand's stride-0 giants, which no op can materialise) are kept: they are
-- how sizes near int64's limits reach every op.
local function too_big(v)
  local n = numel_of(v)
  if n == nil or n <= (1 << 20) then return false end
  if n <= (1 << 31) then return true end
  local ok, contiguous = pcall(function() return v:is_contiguous() end)
  return ok and contiguous == true
end
local function add(v)
  if v == nil or too_big(v) then return end
  if #pool < MAXPOOL then pool[#pool + 1] = v else pool[byte() % MAXPOOL + 1] = v end
end

-- A shape of `d` dims, sizes mostly small; d goes up to 70 (past the limit).
local function shape(d)
  local s = {}
  for i = 1, d do
    local b = byte()
    s[i] = b < 200 and (b % 4) or (b < 250 and (b % 7) or pick(INTS))
  end
  return s
end

local value  -- forward
local function options()
  local t, k = {}, byte() % 3 + 1
  for _ = 1, k do t[pick(KEYS)] = value(1) end
  return t
end

-- One argument value; depth bounds nested tables.
value = function(depth)
  local b = byte()
  local kind = b % 16
  if kind <= 3 and #pool > 0 then return pool[byte() % #pool + 1] end
  if kind == 4 then return pick(INTS) end
  if kind == 5 then return pick(FLOATS) end
  if kind == 6 then return pick(STRINGS) end
  if kind == 7 then return b >= 128 end
  if kind == 8 then return torch[pick(DTYPES)] end
  if kind == 9 then return pick(DEVICES) end
  if kind == 10 then return torch.device(pick(DEVICES)) end  -- cpu, cuda:0, cuda:1: always valid
  if kind == 11 then
    local d = byte() % 6
    if byte() >= 250 then d = 14 + byte() % 56 end
    return shape(d)
  end
  if kind == 12 and depth < 2 then return options() end
  if kind == 13 then
    local ok, sz = pcall(torch.Size, shape(byte() % 4))
    return ok and sz or nil
  end
  if kind == 14 and depth < 2 then
    local t = {}
    for i = 1, byte() % 4 do t[i] = value(depth + 1) end
    return t
  end
  return nil
end

local function args()
  local a, k = {}, byte() % 5
  for i = 1, k do a[i] = value(0) end
  local form = byte() % 4
  if form == 1 then a[k + 1] = options() ; k = k + 1
  elseif form == 2 then  -- one table mixing positionals and keywords
    local t = options()
    for i = 1, k do t[i] = a[i] end
    a, k = {t}, 1
  end
  return a, k
end

-- A tensor to start from: any dtype, device and shape (up to 70 dims).
local function make_tensor()
  local d = byte() % 5
  if byte() >= 240 then d = 15 + byte() % 55 end
  local sizes = {}
  for i = 1, d do sizes[i] = byte() % 4 end
  local ok, t = pcall(torch.ones, sizes, {dtype = torch[pick(DTYPES)], device = pick(DEVICES)})
  if ok then add(t) end
  local v = byte() % 4
  if ok and v == 1 then add(select(2, pcall(t.t, t))) end
  if ok and v == 2 then add(select(2, pcall(t.transpose, t, 0, -1))) end
  if ok and v == 3 then add(select(2, pcall(t.expand, t, 2, table.unpack(sizes)))) end
end

local function call(f, ...)
  local r = table.pack(pcall(f, ...))
  if r[1] then for i = 2, math.min(r.n, 4) do add(r[i]) end end
end

function FUZZ_RUN(s)
  bytes, pos, n = s, 1, #s
  pool = {}
  local steps = 0
  while pos <= n and steps < 64 do
    steps = steps + 1
    local op = byte() % 8
    if op == 0 then
      make_tensor()
    elseif op <= 3 then  -- a library function
      local f = FUNCS[(byte() * 256 + byte()) % #FUNCS + 1]
      local a, k = args()
      call(f[2], table.unpack(a, 1, k))
    elseif op <= 6 and #pool > 0 then  -- a method of a value in the pool
      local self = pool[byte() % #pool + 1]
      local names = methods_of(self)
      if names and #names > 0 then
        local name = names[(byte() * 256 + byte()) % #names + 1]
        local ok, m = pcall(function() return self[name] end)
        if ok and type(m) == 'function' then
          local a, k = args()
          call(m, self, table.unpack(a, 1, k))
        end
      end
    elseif op == 7 and #pool > 0 then  -- operators, indexing, calling a module
      local x, y = pool[byte() % #pool + 1], value(0)
      local w = byte() % 8
      if w == 0 then call(function() return x + y end)
      elseif w == 1 then call(function() return x * y end)
      elseif w == 2 then call(function() return x[y] end)
      elseif w == 3 then call(function() x[y] = value(0) end)
      elseif w == 4 then call(function() return x(y) end)
      elseif w == 5 then call(function() return tostring(x) end)
      elseif w == 6 then call(function() return x / y, x ^ y, x % y end)
      else call(function() return -x, #x end) end
    end
  end
  pool = {}
end

return #FUNCS
