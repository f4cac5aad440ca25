-- The lazy layers: LazyLinear, LazyConv2d, LazyBatchNorm1d/2d, whose input
-- size (in_features, in_channels, num_features) is read at the first call. It
-- prints as 0 until then, the parameters as <UninitializedParameter>; the first
-- call makes the parameters, initialises them as the eager layer does and turns
-- the module into that layer (PyTorch's cls_to_become).
local U = torch._util
local nn = torch.nn
local Module = nn.Module
local P = U.conv_parts
local conv_names, conv_defaults, conv_setup = P.conv_names, P.conv_defaults, P.conv_setup
local bn_names, bn_defaults = P.bn_names, P.bn_defaults
local Conv2d, BatchNorm1d, BatchNorm2d = nn.Conv2d, nn.BatchNorm1d, nn.BatchNorm2d

-- ---- uninitialised parameters of the lazy layers ---------------------------
-- Placeholders until the first call (not yet in parameters(), as they have no shape).
local Uninit = {}
-- Its .data is an empty tensor, as PyTorch's: d2l's
-- net.weight.data:normal_(0, 0.01) before the first call changes nothing.
Uninit.data = torch.empty(0)
local function uninit(kind)
  return setmetatable({kind = kind}, {__tostring = function() return '<' .. kind .. '>' end, __name = kind, __index = Uninit})
end
function nn.UninitializedParameter(...)
  U.parse('UninitializedParameter', {'requires_grad:bool', 'device', 'dtype'}, nil, ...)
  return uninit('UninitializedParameter')
end
function nn.UninitializedBuffer(...)
  U.parse('UninitializedBuffer', {'requires_grad:bool', 'device', 'dtype'}, nil, ...)
  return uninit('UninitializedBuffer')
end
local function is_uninit(v) return type(v) == 'table' and getmetatable(v) and getmetatable(v).__index == Uninit end
-- Whether some module of m still waits for its first call (d2l's Trainer
-- makes the optimizer after it then: 39_d2l_core.lua).
function U.has_uninitialized(m)
  for _, sub in ipairs(m:modules()) do
    for _, k in ipairs({'weight', 'bias'}) do
      if is_uninit(rawget(sub, k)) then return true end
    end
  end
  return false
end
-- Replaces the placeholder fields by real ones (registering them) and turns
-- the module into its eager class, as PyTorch's cls_to_become.
local function materialize(self, eager)
  for _, k in ipairs({'weight', 'bias', 'running_mean', 'running_var'}) do
    if is_uninit(rawget(self, k)) then rawset(self, k, nil) end
  end
  setmetatable(self, eager.__meta)
end

-- ---- the layers -------------------------------------------------------------
local function lazy_options(a)
  return {device = a.device, dtype = a.dtype}
end

local LazyLinear = nn.Linear:extend('LazyLinear')
nn.LazyLinear = LazyLinear
U.doc(LazyLinear, 'nn.LazyLinear(out_features, {bias=true}): a Linear whose in_features is input.shape[-1] at the first call.')
function LazyLinear:__init(...)
  local a = U.parse('LazyLinear.__init__', {'out_features:int!', 'bias:bool', 'device', 'dtype'}, {bias = true}, ...)
  Module.__init(self)
  self.in_features, self.out_features, self._lazy = 0, a.out_features, lazy_options(a)
  rawset(self, 'weight', nn.UninitializedParameter())
  if a.bias then rawset(self, 'bias', nn.UninitializedParameter()) end
end
function LazyLinear:forward(...)
  local x = U.parse('LazyLinear.forward', {'input:Tensor!'}, nil, ...).input
  local o, has_bias = self._lazy, rawget(self, 'bias') ~= nil
  materialize(self, nn.Linear)
  rawset(self, '_lazy', nil)
  self.in_features = x:size(-1)
  local opts = {device = o.device or x.device, dtype = o.dtype}
  self.weight = nn.Parameter(torch.empty(self.out_features, self.in_features, opts))
  if has_bias then self.bias = nn.Parameter(torch.empty(self.out_features, opts)) end
  self:reset_parameters()
  return self:forward(x)
end

local LazyConv2d = Conv2d:extend('LazyConv2d')
nn.LazyConv2d = LazyConv2d
U.doc(LazyConv2d, 'nn.LazyConv2d(out_channels, kernel_size, {stride=1, padding=0, dilation=1, groups=1, bias=true}): a Conv2d whose\n'
  .. 'in_channels is input.shape[1] at the first call.')
function LazyConv2d:__init(...)
  local names = {table.unpack(conv_names, 2)}
  local a = U.parse('LazyConv2d.__init__', names, conv_defaults, ...)
  Module.__init(self)
  a.in_channels = 0
  conv_setup(self, a, 'LazyConv2d.__init__')
  self._lazy = lazy_options(a)
  rawset(self, 'weight', nn.UninitializedParameter())
  if a.bias then rawset(self, 'bias', nn.UninitializedParameter()) end
end
function LazyConv2d:forward(...)
  local x = U.parse('LazyConv2d.forward', {'input:Tensor!'}, nil, ...).input
  local o, has_bias = self._lazy, rawget(self, 'bias') ~= nil
  materialize(self, Conv2d)
  rawset(self, '_lazy', nil)
  self.in_channels = x:size(x:dim() == 3 and 0 or 1)
  if self.in_channels % self.groups ~= 0 then error('ValueError: in_channels must be divisible by groups', 0) end
  local opts = {device = o.device or x.device, dtype = o.dtype}
  local k = self.kernel_size
  self.weight = nn.Parameter(torch.empty(self.out_channels, self.in_channels // self.groups, k[1], k[2], opts))
  if has_bias then self.bias = nn.Parameter(torch.empty(self.out_channels, opts)) end
  self:reset_parameters()
  return self:forward(x)
end

local function lazy_batchnorm(name, eager)
  local cls = eager:extend(name)
  nn[name] = cls
  U.doc(cls, ('nn.%s({eps=1e-5, momentum=0.1, affine=true, track_running_stats=true}): a %s whose num_features\n'):format(name, eager.__name)
    .. 'is input.shape[1] at the first call.')
  function cls:__init(...)
    local a = U.parse(name .. '.__init__', {table.unpack(bn_names, 2)}, bn_defaults, ...)
    Module.__init(self)
    self.num_features, self.eps = 0, a.eps
    if a.momentum ~= false then self.momentum = a.momentum end
    self.affine, self.track_running_stats, self.use_bias = a.affine, a.track_running_stats, a.affine and a.bias
    self._lazy = lazy_options(a)
    if a.affine then
      rawset(self, 'weight', nn.UninitializedParameter())
      if a.bias then rawset(self, 'bias', nn.UninitializedParameter()) end
    end
    if a.track_running_stats then
      rawset(self, 'running_mean', nn.UninitializedBuffer())
      rawset(self, 'running_var', nn.UninitializedBuffer())
      self:register_buffer('num_batches_tracked', torch.tensor(0):to(a.device or 'cpu'))
    end
  end
  function cls:forward(...)
    local x = U.parse(name .. '.forward', {'input:Tensor!'}, nil, ...).input
    local o = self._lazy
    local has_w, has_b = rawget(self, 'weight') ~= nil, rawget(self, 'bias') ~= nil
    materialize(self, eager)
    rawset(self, '_lazy', nil)
    self:_check_input_dim(x)
    local C = x:size(1)
    self.num_features = C
    local opts = {device = o.device or x.device, dtype = o.dtype}
    if has_w then self.weight = nn.Parameter(torch.ones(C, opts)) end
    if has_b then self.bias = nn.Parameter(torch.zeros(C, opts)) end
    if self.track_running_stats then
      self:register_buffer('running_mean', torch.zeros(C, opts))
      self:register_buffer('running_var', torch.ones(C, opts))
    end
    return self:forward(x)
  end
  return cls
end
lazy_batchnorm('LazyBatchNorm1d', BatchNorm1d)
lazy_batchnorm('LazyBatchNorm2d', BatchNorm2d)
