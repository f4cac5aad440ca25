-- Convolution, pooling and normalisation layers: constructor arguments,
-- default initialisation and printed form as PyTorch's. The math is in C++
-- (F.conv2d, F.max_pool2d, ... from bindings/nn_conv.cpp); the lazy forms are
-- in 15_nn_lazy.lua.
local U = torch._util
local nn = torch.nn
local Module = nn.Module
local F = nn.functional

local function pybool(b) return b and 'True' or 'False' end

-- Python's repr of a tuple of ints: (5, 5), (4,).
local function tuple(t)
  if #t == 1 then return ('(%d,)'):format(t[1]) end
  local parts = {}
  for i, v in ipairs(t) do parts[i] = tostring(v) end
  return '(' .. table.concat(parts, ', ') .. ')'
end
-- An int or a table of two ints -> {a, b} (PyTorch's _pair).
local function pair(v, fname, name)
  if math.type(v) == 'integer' then return {v, v} end
  if type(v) == 'table' and #v == 2 and math.type(v[1]) == 'integer' and math.type(v[2]) == 'integer' then return {v[1], v[2]} end
  if type(v) == 'table' and #v == 1 and math.type(v[1]) == 'integer' then return {v[1], v[1]} end
  U.type_error(fname, name, 'int or a tuple of 2 ints', v)
end
-- An int stays an int, a table prints as a tuple (PyTorch keeps what it was given).
local function int_or_tuple(v) return type(v) == 'table' and tuple(v) or tostring(v) end

-- torch.empty (or zeros, ones) with only the options that were given (the C++
-- parser reads {} as a size).
local function make(fn, a, ...)
  local args = {...}
  if a.device or a.dtype then args[#args + 1] = {device = a.device, dtype = a.dtype} end
  return fn(table.unpack(args))
end
local function empty(a, ...) return make(torch.empty, a, ...) end

-- ---- Conv2d ----------------------------------------------------------------
local Conv2d = Module:extend('Conv2d')
nn.Conv2d = Conv2d
U.doc(Conv2d, "nn.Conv2d(in_channels, out_channels, kernel_size, {stride=1, padding=0, dilation=1, groups=1, bias=true,\n"
  .. "padding_mode='zeros', device=, dtype=}): 2-d convolution; padding may be 'same' or 'valid'. Weight [out, in/groups, kh, kw],\n"
  .. 'weight and bias start U(-1/sqrt(fan_in), 1/sqrt(fan_in)) with fan_in = in/groups*kh*kw, as in PyTorch.')

local conv_names = {'in_channels:int!', 'out_channels:int!', 'kernel_size!', 'stride', 'padding', 'dilation', 'groups:int',
                    'bias:bool', 'padding_mode:str', 'device', 'dtype'}
local conv_defaults = {stride = 1, padding = 0, dilation = 1, groups = 1, bias = true, padding_mode = 'zeros'}

local function conv_setup(self, a, fname)
  self.in_channels, self.out_channels = a.in_channels, a.out_channels
  self.kernel_size = pair(a.kernel_size, fname, 'kernel_size')
  self.stride = pair(a.stride, fname, 'stride')
  self.dilation = pair(a.dilation, fname, 'dilation')
  self.groups = a.groups
  if self.groups <= 0 then error('ValueError: groups must be a positive integer', 0) end
  if a.in_channels % self.groups ~= 0 then error('ValueError: in_channels must be divisible by groups', 0) end
  if a.out_channels % self.groups ~= 0 then error('ValueError: out_channels must be divisible by groups', 0) end
  if type(a.padding) == 'string' then
    if a.padding ~= 'same' and a.padding ~= 'valid' then
      error(("ValueError: Invalid padding string '%s', should be one of {'same', 'valid'}"):format(a.padding), 0)
    end
    if a.padding == 'same' and (self.stride[1] ~= 1 or self.stride[2] ~= 1) then
      error("ValueError: padding='same' is not supported for strided convolutions", 0)
    end
    self.padding = a.padding
  else
    self.padding = pair(a.padding, fname, 'padding')
  end
  local modes = {zeros = true, reflect = true, replicate = true, circular = true}
  if not modes[a.padding_mode] then
    error(("ValueError: padding_mode must be one of {'circular', 'reflect', 'zeros', 'replicate'}, but got padding_mode='%s'"):format(a.padding_mode), 0)
  end
  if a.padding_mode ~= 'zeros' then
    error(("NotImplementedError: gpulab: Conv2d(padding_mode='%s') is not supported; only 'zeros'"):format(a.padding_mode), 0)
  end
  self.padding_mode = a.padding_mode
  self.output_padding, self.transposed = {0, 0}, false
end

function Conv2d:__init(...)
  local a = U.parse('Conv2d.__init__', conv_names, conv_defaults, ...)
  Module.__init(self)
  conv_setup(self, a, 'Conv2d.__init__')
  self.weight = nn.Parameter(empty(a, a.out_channels, a.in_channels // a.groups, self.kernel_size[1], self.kernel_size[2]))
  if a.bias then self.bias = nn.Parameter(empty(a, a.out_channels)) end
  self:reset_parameters()
end

-- PyTorch's _ConvNd.reset_parameters: weight then bias, both U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
function Conv2d:reset_parameters()
  nn.init.kaiming_uniform_(self.weight, {a = math.sqrt(5)})
  if self.bias ~= nil then
    local fan_in = nn.init._calculate_fan_in_and_fan_out(self.weight)
    if fan_in ~= 0 then
      local bound = 1 / math.sqrt(fan_in)
      nn.init.uniform_(self.bias, -bound, bound)
    end
  end
end

function Conv2d:forward(...)
  local x = U.parse('Conv2d.forward', {'input:Tensor!'}, nil, ...).input
  return F.conv2d(x, self.weight, {bias = self.bias, stride = self.stride, padding = self.padding,
                                   dilation = self.dilation, groups = self.groups})
end

function Conv2d:extra_repr()
  local s = ('%d, %d, kernel_size=%s, stride=%s'):format(self.in_channels, self.out_channels, tuple(self.kernel_size), tuple(self.stride))
  if type(self.padding) == 'string' then s = s .. ', padding=' .. self.padding
  elseif self.padding[1] ~= 0 or self.padding[2] ~= 0 then s = s .. ', padding=' .. tuple(self.padding) end
  if self.dilation[1] ~= 1 or self.dilation[2] ~= 1 then s = s .. ', dilation=' .. tuple(self.dilation) end
  if self.groups ~= 1 then s = s .. ', groups=' .. self.groups end
  if self.bias == nil then s = s .. ', bias=False' end
  return s
end

-- ---- pooling ---------------------------------------------------------------
local MaxPool2d = Module:extend('MaxPool2d')
nn.MaxPool2d = MaxPool2d
U.doc(MaxPool2d, 'nn.MaxPool2d(kernel_size, {stride=kernel_size, padding=0, dilation=1, return_indices=false, ceil_mode=false}):\n'
  .. 'the maximum of each window (and, with return_indices, where it was: h * W + w in its plane).')
function MaxPool2d:__init(...)
  local a = U.parse('MaxPool2d.__init__', {'kernel_size!', 'stride', 'padding', 'dilation', 'return_indices:bool', 'ceil_mode:bool'},
                    {padding = 0, dilation = 1, return_indices = false, ceil_mode = false}, ...)
  Module.__init(self)
  self.kernel_size, self.stride = a.kernel_size, a.stride or a.kernel_size
  self.padding, self.dilation, self.return_indices, self.ceil_mode = a.padding, a.dilation, a.return_indices, a.ceil_mode
end
function MaxPool2d:forward(...)
  local x = U.parse('MaxPool2d.forward', {'input:Tensor!'}, nil, ...).input
  return F.max_pool2d(x, self.kernel_size, {stride = self.stride, padding = self.padding, dilation = self.dilation,
                                            ceil_mode = self.ceil_mode, return_indices = self.return_indices})
end
function MaxPool2d:extra_repr()
  return ('kernel_size=%s, stride=%s, padding=%s, dilation=%s, ceil_mode=%s'):format(int_or_tuple(self.kernel_size),
    int_or_tuple(self.stride), int_or_tuple(self.padding), int_or_tuple(self.dilation), pybool(self.ceil_mode))
end

local AvgPool2d = Module:extend('AvgPool2d')
nn.AvgPool2d = AvgPool2d
U.doc(AvgPool2d, 'nn.AvgPool2d(kernel_size, {stride=kernel_size, padding=0, ceil_mode=false, count_include_pad=true, divisor_override=nil}):\n'
  .. 'the mean of each window (its sum over divisor_override when given).')
function AvgPool2d:__init(...)
  local a = U.parse('AvgPool2d.__init__', {'kernel_size!', 'stride', 'padding', 'ceil_mode:bool', 'count_include_pad:bool', 'divisor_override:int'},
                    {padding = 0, ceil_mode = false, count_include_pad = true}, ...)
  Module.__init(self)
  self.kernel_size, self.stride, self.padding = a.kernel_size, a.stride or a.kernel_size, a.padding
  self.ceil_mode, self.count_include_pad, self.divisor_override = a.ceil_mode, a.count_include_pad, a.divisor_override
end
function AvgPool2d:forward(...)
  local x = U.parse('AvgPool2d.forward', {'input:Tensor!'}, nil, ...).input
  return F.avg_pool2d(x, self.kernel_size, {stride = self.stride, padding = self.padding, ceil_mode = self.ceil_mode,
                                            count_include_pad = self.count_include_pad, divisor_override = self.divisor_override})
end
function AvgPool2d:extra_repr()
  return ('kernel_size=%s, stride=%s, padding=%s'):format(int_or_tuple(self.kernel_size), int_or_tuple(self.stride), int_or_tuple(self.padding))
end

local AdaptiveAvgPool2d = Module:extend('AdaptiveAvgPool2d')
nn.AdaptiveAvgPool2d = AdaptiveAvgPool2d
U.doc(AdaptiveAvgPool2d, 'nn.AdaptiveAvgPool2d(output_size): averages to an output of output_size (an int, or {h, w}; -1 keeps that size, as None).')
function AdaptiveAvgPool2d:__init(...)
  local a = U.parse('AdaptiveAvgPool2d.__init__', {'output_size!'}, nil, ...)
  Module.__init(self)
  self.output_size = a.output_size
end
function AdaptiveAvgPool2d:forward(...)
  local x = U.parse('AdaptiveAvgPool2d.forward', {'input:Tensor!'}, nil, ...).input
  return F.adaptive_avg_pool2d(x, self.output_size)
end
function AdaptiveAvgPool2d:extra_repr()
  local o = self.output_size
  if type(o) ~= 'table' then return 'output_size=' .. tostring(o) end
  local function v(x) return (x == nil or x == -1) and 'None' or tostring(x) end
  return ('output_size=(%s, %s)'):format(v(o[1]), v(o[2]))
end

-- ---- batch norm ------------------------------------------------------------
local bn_names = {'num_features:int!', 'eps:float', 'momentum', 'affine:bool', 'track_running_stats:bool', 'bias:bool', 'device', 'dtype'}
local bn_defaults = {eps = 1e-5, momentum = 0.1, affine = true, track_running_stats = true, bias = true}

local function batchnorm(name, check)
  local cls = Module:extend(name)
  nn[name] = cls
  U.doc(cls, ('nn.%s(num_features, {eps=1e-5, momentum=0.1, affine=true, track_running_stats=true}): normalises each\n'):format(name)
    .. 'channel by the batch statistics in train(), by the running ones in eval(); weight 1, bias 0.')
  cls._check_input_dim = check
  return cls
end

local function bn_setup(self, a)
  self.num_features, self.eps = a.num_features, a.eps
  if a.momentum ~= false then self.momentum = a.momentum end  -- momentum=false: PyTorch's None (a cumulative average)
  self.affine, self.track_running_stats, self.use_bias = a.affine, a.track_running_stats, a.affine and a.bias
  if a.affine then
    self.weight = nn.Parameter(empty(a, a.num_features))
    if a.bias then self.bias = nn.Parameter(empty(a, a.num_features)) end
  end
  if a.track_running_stats then
    self:register_buffer('running_mean', make(torch.zeros, a, a.num_features))
    self:register_buffer('running_var', make(torch.ones, a, a.num_features))
    self:register_buffer('num_batches_tracked', torch.tensor(0):to(a.device or 'cpu'))
  end
  self:reset_parameters()
end

local function bn_methods(cls)
  function cls:__init(...)
    local a = U.parse(self:_get_name() .. '.__init__', bn_names, bn_defaults, ...)
    Module.__init(self)
    bn_setup(self, a)
  end
  function cls:reset_running_stats()
    if self.track_running_stats then
      U.with_grad_mode(false, function()
        self.running_mean:zero_(); self.running_var:fill_(1); self.num_batches_tracked:zero_()
      end)
    end
  end
  function cls:reset_parameters()
    self:reset_running_stats()
    if self.affine then
      nn.init.ones_(self.weight)
      if self.bias ~= nil then nn.init.zeros_(self.bias) end
    end
  end
  -- PyTorch's _BatchNorm.forward: momentum=None is a cumulative average.
  function cls:forward(...)
    local x = U.parse(self:_get_name() .. '.forward', {'input:Tensor!'}, nil, ...).input
    self:_check_input_dim(x)
    local factor = self.momentum or 0.0
    if self.training and self.track_running_stats then
      U.with_grad_mode(false, function() self.num_batches_tracked:add_(1) end)
      if self.momentum == nil then factor = 1.0 / self.num_batches_tracked:item() end
    end
    local bn_training = self.training or (self.running_mean == nil and self.running_var == nil)
    local use_stats = not self.training or self.track_running_stats
    return F.batch_norm(x, use_stats and self.running_mean or nil, use_stats and self.running_var or nil,
                        {weight = self.weight, bias = self.bias, training = bn_training, momentum = factor, eps = self.eps})
  end
  function cls:extra_repr()
    local m = self.momentum == nil and 'None' or U.pyfloat(self.momentum)
    return ('%d, eps=%s, momentum=%s, affine=%s, bias=%s, track_running_stats=%s'):format(self.num_features, U.pyfloat(self.eps), m,
      pybool(self.affine), pybool(self.use_bias), pybool(self.track_running_stats))
  end
end

local function dims_check(allowed, text)
  return function(_, x)
    if not allowed[x:dim()] then error(('ValueError: expected %s input (got %dD input)'):format(text, x:dim()), 0) end
  end
end
local BatchNorm1d = batchnorm('BatchNorm1d', dims_check({[2] = true, [3] = true}, '2D or 3D'))
local BatchNorm2d = batchnorm('BatchNorm2d', dims_check({[4] = true}, '4D'))
bn_methods(BatchNorm1d)
bn_methods(BatchNorm2d)

-- ---- LayerNorm -------------------------------------------------------------
local LayerNorm = Module:extend('LayerNorm')
nn.LayerNorm = LayerNorm
U.doc(LayerNorm, 'nn.LayerNorm(normalized_shape, {eps=1e-5, elementwise_affine=true, bias=true}): normalises over the last dims; weight 1, bias 0.')
function LayerNorm:__init(...)
  local a = U.parse('LayerNorm.__init__', {'normalized_shape!', 'eps:float', 'elementwise_affine:bool', 'bias:bool', 'device', 'dtype'},
                    {eps = 1e-5, elementwise_affine = true, bias = true}, ...)
  Module.__init(self)
  local ns = a.normalized_shape
  self.normalized_shape = type(ns) == 'table' and {table.unpack(ns)} or {ns}
  self.eps, self.elementwise_affine, self.use_bias = a.eps, a.elementwise_affine, a.elementwise_affine and a.bias
  if a.elementwise_affine then
    self.weight = nn.Parameter(empty(a, table.unpack(self.normalized_shape)))
    if a.bias then self.bias = nn.Parameter(empty(a, table.unpack(self.normalized_shape))) end
  end
  self:reset_parameters()
end
function LayerNorm:reset_parameters()
  if self.elementwise_affine then
    nn.init.ones_(self.weight)
    if self.bias ~= nil then nn.init.zeros_(self.bias) end
  end
end
function LayerNorm:forward(...)
  local x = U.parse('LayerNorm.forward', {'input:Tensor!'}, nil, ...).input
  return F.layer_norm(x, self.normalized_shape, {weight = self.weight, bias = self.bias, eps = self.eps})
end
function LayerNorm:extra_repr()
  return ('%s, eps=%s, elementwise_affine=%s, bias=%s'):format(tuple(self.normalized_shape), U.pyfloat(self.eps),
    pybool(self.elementwise_affine), pybool(self.use_bias))
end

-- What the lazy layers (15_nn_lazy.lua) build on.
U.conv_parts = {conv_names = conv_names, conv_defaults = conv_defaults, conv_setup = conv_setup,
                bn_names = bn_names, bn_defaults = bn_defaults}
