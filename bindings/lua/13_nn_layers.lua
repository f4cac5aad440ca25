-- Layers, containers and losses, with PyTorch's constructor arguments, default
-- initialisation and printed form (extra_repr). nn.functional gains the Lua
-- wrappers that the C++ side does not define.
local U = torch._util
local nn = torch.nn
local Module = nn.Module
local F = nn.functional

-- ---- functional ------------------------------------------------------------
-- The tensor ops themselves (same signatures), so help() shows their docs.
for _, name in ipairs({'relu', 'sigmoid', 'tanh'}) do
  F[name] = F[name] or torch[name]
end
-- F.softmax and F.log_softmax take dim=None, as PyTorch's: the legacy dim
-- (0 for 0-, 1- and 3-d input, else 1) with its deprecation warning.
local function implicit_dim(name, x, level)
  torch._warn(('Implicit dimension choice for %s has been deprecated. Change the call to include dim=X as an argument.')
    :format(name), level)
  local nd = x:dim()
  return (nd == 0 or nd == 1 or nd == 3) and 0 or 1
end
for _, name in ipairs({'softmax', 'log_softmax'}) do
  local op = torch[name]
  F[name] = function(...)
    local a = U.parse(name, {'input:Tensor!', 'dim', '_stacklevel', 'dtype'}, {}, ...)
    local dim = a.dim
    if dim == nil then dim = implicit_dim(name, a.input, 2) end
    return op(a.input, dim, {dtype = a.dtype})
  end
  torch._set_doc(F[name], ('F.%s(input, dim=None, {dtype=}): torch.%s along dim; with no dim, the legacy choice (0 for a 0-, 1- or 3-d input, else 1) and a deprecation warning, as PyTorch.'):format(name, name))
end

local function pybool(b) return b and 'True' or 'False' end

-- ---- Linear ----------------------------------------------------------------
local Linear = Module:extend('Linear')
nn.Linear = Linear
U.doc(Linear, 'nn.Linear(in_features, out_features, {bias=true, device=, dtype=}): y = x W^T + b.\n'
  .. 'weight and bias start U(-1/sqrt(in_features), 1/sqrt(in_features)), as in PyTorch.')

function Linear:__init(...)
  local a = U.parse('Linear.__init__', {'in_features:int!', 'out_features:int!', 'bias:bool', 'device', 'dtype'},
                    {bias = true}, ...)
  Module.__init(self)
  self.in_features, self.out_features = a.in_features, a.out_features
  -- Only pass options that were given (the C++ parser reads {} as a size).
  local function empty(...)
    local args = {...}
    if a.device or a.dtype then args[#args + 1] = {device = a.device, dtype = a.dtype} end
    return torch.empty(table.unpack(args))
  end
  self.weight = nn.Parameter(empty(a.out_features, a.in_features))
  if a.bias then self.bias = nn.Parameter(empty(a.out_features)) end
  self:reset_parameters()
end

-- PyTorch's order of draws: weight first, then bias, both U(-1/sqrt(in), 1/sqrt(in)).
function Linear:reset_parameters()
  nn.init.kaiming_uniform_(self.weight, {a = math.sqrt(5)})
  if self.bias ~= nil then
    local fan_in = nn.init._calculate_fan_in_and_fan_out(self.weight)
    local bound = fan_in > 0 and 1 / math.sqrt(fan_in) or 0
    nn.init.uniform_(self.bias, -bound, bound)
  end
end

function Linear:forward(...)
  return F.linear(U.parse('Linear.forward', {'input:Tensor!'}, nil, ...).input, self.weight, self.bias)
end

function Linear:extra_repr()
  return ('in_features=%d, out_features=%d, bias=%s'):format(self.in_features, self.out_features, pybool(self.bias ~= nil))
end

-- ---- Sequential ------------------------------------------------------------
-- nn.Sequential(m1, m2, ...) or nn.Sequential(OrderedDict); net[0] is the
-- first module (0-based, negative counts from the end), #net their number.
local Sequential = Module:extend('Sequential')
nn.Sequential = Sequential
-- One step of `for layer in net do` (a module's __call in a generic for,
-- Note [for X, y in loader]): a Sequential's modules in order, a shared one
-- as often as it is there; a ModuleList's forward iterates itself; any other
-- module is Python's "'Linear' object is not iterable".
Sequential.__iterable = true
local cursor = setmetatable({}, {__mode = 'k'})
function U.module_step(self, previous, ...)
  local how = U.class_of(self).__iterable
  if how == 'forward' then return self:forward(nil, previous, ...) end
  if not how then error(("TypeError: '%s' object is not iterable"):format(self:_get_name()), 0) end
  local i = previous == nil and 0 or (cursor[self] or -1) + 1
  cursor[self] = i
  if i < #self then return self[i] end
end
U.doc(Sequential, 'nn.Sequential(m1, m2, ...): applies the modules in order. net[0] is the first (0-based), #net their number.')

function Sequential:__init(...)
  Module.__init(self)
  local first = ...
  for i = 1, select('#', ...) do  -- modules only: a keywords table is a mistake, not a module
    local m = select(i, ...)
    if U.is_plain_table(m) then
      for k in pairs(m) do
        if type(k) == 'string' then error(("TypeError: Sequential.__init__() got an unexpected keyword argument '%s'"):format(k), 0) end
      end
    end
  end
  if select('#', ...) == 1 and U.is_od(first) then
    for name, m in pairs(first) do self:add_module(name, m) end
  else
    for i = 1, select('#', ...) do self:add_module(tostring(i - 1), (select(i, ...))) end
  end
end

function Sequential:forward(...)
  local input = U.parse('Sequential.forward', {'input'}, nil, ...).input
  for _, m in pairs(self._modules) do input = m(input) end
  return input
end

function Sequential:__len() return #self._modules end

-- A Python slice 'start:stop:step' over n items: the 0-based indices it picks.
local function slice_indices(spec, n)
  local parts = {}
  for p in (spec .. ':'):gmatch('([^:]*):') do parts[#parts + 1] = p end
  local function num(s)
    s = s and s:match('^%s*(.-)%s*$')
    if s == nil or s == '' then return nil end
    return math.tointeger(tonumber(s)) or error(('TypeError: slice indices must be integers, got %q'):format(s), 0)
  end
  local start, stop, step = num(parts[1]), num(parts[2]), num(parts[3]) or 1
  if #parts > 3 or step == 0 then error(('ValueError: invalid slice %q'):format(spec), 0) end
  local function clamp(i, lo, hi) if i < 0 then i = i + n end return math.max(lo, math.min(hi, i)) end
  local out = {}
  if step > 0 then
    start, stop = start and clamp(start, 0, n) or 0, stop and clamp(stop, 0, n) or n
    for i = start, stop - 1, step do out[#out + 1] = i end
  else
    start, stop = start and clamp(start, -1, n - 1) or n - 1, stop and clamp(stop, -1, n - 1) or -1
    for i = start, stop + 1, step do out[#out + 1] = i end
  end
  return out
end
U.slice_indices = slice_indices  -- for ModuleList (13_nn_module_list.lua)

function Sequential:__getitem(idx)
  local keys, n = rawget(self._modules, '_k'), #self._modules
  if type(idx) == 'string' then  -- net['1:3']: a new Sequential of those modules, names kept
    local od = U.OrderedDict()
    for _, i in ipairs(slice_indices(idx, n)) do od[keys[i + 1]] = rawget(self._modules, '_v')[keys[i + 1]] end
    return U.class_of(self)(od)
  end
  local i = idx < 0 and idx + n or idx
  if i < 0 or i >= n then error(('IndexError: index %d is out of range'):format(idx), 0) end
  return rawget(self._modules, '_v')[keys[i + 1]]
end

function Sequential:append(m)
  self:add_module(tostring(#self._modules), m)
  return self
end

-- ---- activations and shape layers ------------------------------------------
local function simple(name, forward, extra_names, defaults, extra_repr)
  local cls = Module:extend(name)
  nn[name] = cls
  function cls:__init(...)
    local a = U.parse(name .. '.__init__', extra_names or {}, defaults, ...)
    Module.__init(self)
    for _, spec in ipairs(extra_names or {}) do
      local k = spec:match('^[^:!]+')
      self[k] = a[k]
    end
  end
  function cls:forward(...)
    return forward(self, U.parse(name .. '.forward', {'input:Tensor!'}, nil, ...).input)
  end
  if extra_repr then cls.extra_repr = extra_repr end
  return cls
end

simple('ReLU', function(self, x) return self.inplace and x:relu_() or torch.relu(x) end,
  {'inplace:bool'}, {inplace = false}, function(self) return self.inplace and 'inplace=True' or '' end)
simple('Sigmoid', function(_, x) return torch.sigmoid(x) end)
simple('Tanh', function(_, x) return torch.tanh(x) end)
simple('GELU', function(self, x) return F.gelu(x, {approximate = self.approximate}) end,
  {'approximate:str'}, {approximate = 'none'}, function(self) return 'approximate=' .. repr(self.approximate) end)
simple('SiLU', function(self, x) return F.silu(x, self.inplace) end,
  {'inplace:bool'}, {inplace = false}, function(self) return self.inplace and 'inplace=True' or '' end)

simple('Flatten', function(self, x) return x:flatten(self.start_dim, self.end_dim) end,
  {'start_dim:int', 'end_dim:int'}, {start_dim = 1, end_dim = -1},
  function(self) return ('start_dim=%d, end_dim=%d'):format(self.start_dim, self.end_dim) end)

-- PyTorch's legacy choice when Softmax is built without dim.
local function softmax_dim(self, x, name)
  if self.dim ~= nil then return self.dim end
  return implicit_dim(name, x, 4)  -- past forward and the module call: the line that called the module
end
local function dim_repr(self) return 'dim=' .. (self.dim == nil and 'None' or tostring(self.dim)) end
simple('Softmax', function(self, x) return torch.softmax(x, softmax_dim(self, x, 'softmax')) end, {'dim:int'}, nil, dim_repr)
simple('LogSoftmax', function(self, x) return torch.log_softmax(x, softmax_dim(self, x, 'log_softmax')) end, {'dim:int'}, nil, dim_repr)

local Dropout = simple('Dropout', function(self, x) return F.dropout(x, self.p, self.training) end,
  {'p:float', 'inplace:bool'}, {p = 0.5, inplace = false},
  function(self) return ('p=%s, inplace=%s'):format(U.pyfloat(self.p), pybool(self.inplace)) end)
local dropout_init = Dropout.__init
function Dropout:__init(...)
  dropout_init(self, ...)
  if self.p < 0 or self.p > 1 then
    error(('ValueError: dropout probability has to be between 0 and 1, but got %s'):format(U.pyfloat(self.p)), 0)
  end
end

-- Identity ignores its arguments, as in PyTorch.
local Identity = Module:extend('Identity')
nn.Identity = Identity
function Identity:__init() Module.__init(self) end
function Identity:forward(x) return x end

-- ---- losses ----------------------------------------------------------------
-- `names` are the constructor's arguments; `passed` those forwarded to the
-- functional form. A class weight is a buffer, as in PyTorch's _WeightedLoss
-- (it moves with :to() and appears in state_dict).
local function loss(name, fn, names, passed)
  local cls = Module:extend(name)
  nn[name] = cls
  function cls:__init(...)
    local a = U.parse(name .. '.__init__', names, {reduction = 'mean'}, ...)
    Module.__init(self)
    if a.size_average ~= nil or a.reduce ~= nil then
      error(('NotImplementedError: gpulab: %s: size_average and reduce are deprecated; use reduction='):format(name), 0)
    end
    for _, k in ipairs(passed) do
      if k == 'weight' then
        if a.weight ~= nil then self:register_buffer('weight', a.weight) end
      else
        self[k] = a[k]
      end
    end
    self.reduction = a.reduction
  end
  function cls:forward(...)
    local a = U.parse(name .. '.forward', {'input:Tensor!', 'target:Tensor!'}, nil, ...)
    local input, target = a.input, a.target
    local opts = {reduction = self.reduction}
    for _, k in ipairs(passed) do opts[k] = self[k] end
    return fn(input, target, opts)
  end
  return cls
end

U.loss_module = loss  -- for the losses of 16_losses.lua
loss('MSELoss', function(...) return F.mse_loss(...) end, {'size_average', 'reduce', 'reduction:str'}, {})
loss('CrossEntropyLoss', function(...) return F.cross_entropy(...) end,
  {'weight:Tensor', 'size_average', 'ignore_index:int', 'reduce', 'reduction:str', 'label_smoothing:float'},
  {'weight', 'ignore_index', 'label_smoothing'})
local ce_init = nn.CrossEntropyLoss.__init
function nn.CrossEntropyLoss:__init(...)
  ce_init(self, ...)
  if self.ignore_index == nil then self.ignore_index = -100 end
  if self.label_smoothing == nil then self.label_smoothing = 0.0 end
end
