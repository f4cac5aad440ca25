-- nn.DataParallel, following torch/nn/parallel/data_parallel.py: each forward
-- scatters the inputs along `dim` (input:chunk(n, dim): 30 -> 15 + 15), makes a
-- replica of the module per device, runs them, and gathers the outputs on
-- output_device with torch.cat. Replicas hold p:to(device) copies of the
-- parameters, which record ToCopyBackward0, so backward() sums every device's
-- gradient into the original parameters. They are rebuilt on every forward.
local U = torch._util
local nn = torch.nn
local Module = nn.Module

local DataParallel = Module:extend('DataParallel')
nn.DataParallel = DataParallel
U.doc(DataParallel, 'nn.DataParallel(module, {device_ids=, output_device=, dim=0}): splits each batch over the '
  .. 'devices.\nThe module must be on cuda:<device_ids[0]>; state_dict keys gain "module.".')

local function cuda_count()
  local cuda = torch.cuda
  if not (cuda and cuda.is_available and cuda.is_available()) then return 0 end
  return cuda.device_count()
end

-- Device ids may be given as integers, torch.device or 'cuda:1'.
local function device_index(d)
  if math.type(d) == 'integer' then return d end
  if type(d) == 'string' then d = torch.device(d) end
  if U.kind(d) == 'torch.device' then
    if d.type == 'cpu' then return -1 end
    return d.index or 0
  end
  error(('TypeError: expected a device id, got %s'):format(U.kind(d)), 0)
end
local function device_of(i) return i < 0 and torch.device('cpu') or torch.device('cuda', i) end

function DataParallel:__init(...)
  local a = U.parse('DataParallel.__init__', {'module:Module!', 'device_ids', 'output_device', 'dim:int'}, {dim = 0}, ...)
  if a.device_ids ~= nil and type(a.device_ids) ~= 'table' then
    U.type_error('DataParallel.__init__', 'device_ids', 'a list of device ids', a.device_ids)
  end
  Module.__init(self)
  self.module = a.module
  self.dim = a.dim
  local n = cuda_count()
  if n == 0 then  -- no CUDA: forward calls the module directly
    self.device_ids = {}
    return
  end
  local ids = {}
  if a.device_ids == nil then
    for i = 0, n - 1 do ids[#ids + 1] = i end
  else
    for i, d in ipairs(a.device_ids) do ids[i] = device_index(d) end
  end
  self.device_ids = ids
  self.output_device = device_index(a.output_device == nil and ids[1] or a.output_device)
  self.src_device = device_of(ids[1])
  if #ids == 1 then self.module:to(self.src_device) end
end

-- ---- scatter ---------------------------------------------------------------
-- Returns one argument list per device. Tensors are chunked; other values are
-- repeated; the count is the smallest number of chunks among the tensors.
local function scatter(args, devices, dim)
  local pieces, count = {}, #devices
  for i = 1, args.n do
    local v = args[i]
    if U.is_tensor(v) then
      local chunks = v:chunk(#devices, dim)
      for j, c in ipairs(chunks) do chunks[j] = c:to(devices[j]) end
      pieces[i] = chunks
      count = math.min(count, #chunks)
    end
  end
  local out = {}
  for j = 1, count do
    local list = {n = args.n}
    for i = 1, args.n do list[i] = pieces[i] and pieces[i][j] or args[i] end
    out[j] = list
  end
  return out
end

-- ---- replicate -------------------------------------------------------------
-- A copy of the module tree sharing every plain field, with parameters and
-- buffers moved to `device` through autograd; shared modules/tensors stay shared.
local function replicate_one(m, device, memo)
  if memo[m] then return memo[m] end
  local r = setmetatable({}, getmetatable(m))
  memo[m] = r
  for k, v in pairs(m) do rawset(r, k, v) end
  U.init_module(m)
  local params, bufs, mods = U.OrderedDict(), U.OrderedDict(), U.OrderedDict()
  local function moved(t)
    if memo[t] == nil then memo[t] = t:to(device) end
    return memo[t]
  end
  for k, p in pairs(m._parameters) do params[k] = moved(p) end
  for k, b in pairs(m._buffers) do bufs[k] = moved(b) end
  for k, c in pairs(m._modules) do mods[k] = replicate_one(c, device, memo) end
  rawset(r, '_parameters', params)
  rawset(r, '_buffers', bufs)
  rawset(r, '_modules', mods)
  return r
end

function DataParallel.replicate(module, devices)
  local out = {}
  for i, d in ipairs(devices) do out[i] = replicate_one(module, d, {}) end
  return out
end

-- ---- gather ----------------------------------------------------------------
local function gather(outputs, target, dim)
  local first = outputs[1]
  if U.is_tensor(first) then
    local moved = {}
    for i, o in ipairs(outputs) do
      if o:dim() == 0 then o = o:view(1) end  -- PyTorch also unsqueezes scalars (with a warning)
      moved[i] = o:to(target)
    end
    local r = torch.cat(moved, dim)
    if torch._rename_grad_fn and r.grad_fn ~= nil then torch._rename_grad_fn(r, 'GatherBackward') end
    return r
  elseif U.is_plain_table(first) then
    local out = {}
    for k in pairs(first) do
      local col = {}
      for i, o in ipairs(outputs) do col[i] = o[k] end
      out[k] = gather(col, target, dim)
    end
    return out
  end
  return first
end

-- ---- forward ---------------------------------------------------------------
function DataParallel:forward(...)
  local ids = self.device_ids
  if #ids == 0 then return self.module(...) end
  for _, list in ipairs({self.module:parameters(), self.module:buffers()}) do
    for _, t in ipairs(list) do
      if t.device ~= self.src_device then
        error(('RuntimeError: module must have its parameters and buffers on device %s (device_ids[0]) but found '
          .. 'one of them on device: %s'):format(tostring(self.src_device), tostring(t.device)), 0)
      end
    end
  end
  local devices = {}
  for i, id in ipairs(ids) do devices[i] = device_of(id) end
  local inputs = scatter(table.pack(...), devices, self.dim)
  if #inputs == 0 then inputs = {{n = 0}} end
  if #ids == 1 then return self.module(table.unpack(inputs[1], 1, inputs[1].n)) end
  local replicas = DataParallel.replicate(self.module, table.move(devices, 1, #inputs, 1, {}))
  local outputs = {}
  for i, r in ipairs(replicas) do outputs[i] = r(table.unpack(inputs[i], 1, inputs[i].n)) end
  return gather(outputs, device_of(self.output_device), self.dim)
end
