-- torch.distributions: Normal, Categorical and Multinomial, written as
-- PyTorch's torch/distributions writes them (the same formulas and the same
-- calls into the random ops, so seeded samples are PyTorch's numbers):
--   Multinomial(10, torch.ones(6) / 6):sample({3})      -- d2l 2.6
-- Fields as in Python: d.mean, d.variance, d.stddev, d.mode, d.batch_shape,
-- d.event_shape (and loc/scale, probs/logits, total_count); methods sample,
-- log_prob, entropy (and rsample, cdf, icdf for Normal).
local U = torch._util
local D = {}
torch.distributions = D

local LOG_SQRT_2PI = math.log(math.sqrt(2 * math.pi))

local function size_of(fname, s)
  if s == nil then return {} end
  if torch.is_tensor(s) then error(('TypeError: %s(): sample_shape must be a torch.Size or a table of ints'):format(fname), 0) end
  local r = {}
  if type(s) == 'number' then return {s} end
  for i = 1, #s do r[i] = s[i] end
  return r
end
local function concat(a, b)
  local r = {}
  for i = 1, #a do r[#r + 1] = a[i] end
  for i = 1, #b do r[#r + 1] = b[i] end
  return r
end
-- A tensor's shape or a torch.Size (0-based) as a Lua list.
local function shape_list(t)
  local s = torch.is_tensor(t) and t.shape or t
  local r = {}
  for i = 1, #s do r[i] = s[i - 1] end
  return r
end
-- Python's broadcast of two shapes (torch.Size or lists), as a list.
local function broadcast(a, b)
  local na, nb = #a, #b
  local n = math.max(na, nb)
  local r = {}
  for i = 1, n do
    local x = i <= n - na and 1 or a[i - (n - na) - (getmetatable(a) and 1 or 0)]
    local y = i <= n - nb and 1 or b[i - (n - nb) - (getmetatable(b) and 1 or 0)]
    if x ~= y and x ~= 1 and y ~= 1 then
      error(('RuntimeError: shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between %s and %s'):format(tostring(a), tostring(b)), 0)
    end
    r[i] = x == 1 and y or x
  end
  return r
end
-- t expanded to shape; t itself when it has that shape already (PyTorch's
-- broadcast_all: Normal(p, s).mean is p, with p's own grad_fn).
local function expand_to(t, shape)
  local same = t:dim() == #shape
  for i = 1, #shape do same = same and t:size(i - 1) == shape[i] end
  return same and t or t:expand(shape)
end
-- logsumexp over the last dim, kept: the max taken out first, as PyTorch.
local function logsumexp_last(t)
  local m = t:amax(-1, true)
  m = torch.where(m:isinf(), torch.zeros_like(m), m)
  return (t - m):exp():sum(-1, true):log() + m
end
local function as_tensor(v, like)
  if torch.is_tensor(v) then return v end
  local o = {dtype = like and like.dtype or torch.get_default_dtype()}
  if like then o.device = like.device end
  return torch.tensor(v + 0.0, o)
end

-- A class whose instances read properties (functions of self) as fields.
local function dist_class(name)
  local cls = U.class(name, nil, function(c)
    return {
      __index = function(self, k)
        local p = c.__props[k]
        if p then return p(self) end
        return c[k]
      end,
      __tostring = function(self) return self:__repr() end,
      __name = 'torch.distributions.' .. name,
    }
  end)
  cls.__props = {}
  return cls
end

-- "Normal(loc: 0.0, scale: 1.0)": a parameter given as a number prints its
-- value, another one-element one its tensor, any other its size
-- (Distribution.__repr__).
local function param_repr(t)
  if t:dim() == 0 then return U.pyfloat(t:item()) end
  if t:numel() == 1 then return tostring(t) end
  return tostring(t.shape)
end
local function repr_of(self, names)
  local parts = {}
  for _, n in ipairs(names) do
    local v = rawget(self, n)
    if v ~= nil then parts[#parts + 1] = n .. ': ' .. param_repr(v) end
  end
  return U.class_of(self).__name .. '(' .. table.concat(parts, ', ') .. ')'
end

local function invalid(self, param, value, constraint)
  local shown = value:dim() == 0 and U.pyfloat(value:item()) or tostring(value)
  local shape = {}
  for i = 1, value:dim() do shape[i] = tostring(value.shape[i - 1]) end
  local tuple = #shape == 1 and '(' .. shape[1] .. ',)' or '(' .. table.concat(shape, ', ') .. ')'
  error(('ValueError: Expected parameter %s (Tensor of shape %s) of distribution %s to satisfy the constraint %s, but found invalid values:\n%s')
    :format(param, tuple, tostring(self), constraint, shown), 0)
end

-- ---- Normal ----------------------------------------------------------------
local Normal = dist_class('Normal')
D.Normal = Normal
U.doc(Normal, 'torch.distributions.Normal(loc, scale): the normal distribution; loc and scale are numbers or tensors\n'
  .. '  (broadcast). Fields mean, variance, stddev, mode, batch_shape; methods sample(shape), rsample(shape),\n'
  .. '  log_prob(x), entropy(), cdf(x), icdf(p).')

function Normal:new(...)
  local a = U.parse('Normal', {'loc!', 'scale!', 'validate_args'}, nil, ...)
  local loc, scale = a.loc, a.scale
  local like = torch.is_tensor(loc) and loc or torch.is_tensor(scale) and scale or nil
  loc, scale = as_tensor(loc, like), as_tensor(scale, like)
  local shape = broadcast(loc.shape, scale.shape)
  local self = setmetatable({loc = expand_to(loc, shape), scale = expand_to(scale, shape)}, self.__meta)
  if a.validate_args ~= false then
    if not self.scale:gt(0):all():item() then invalid(self, 'scale', scale, 'GreaterThan(lower_bound=0.0)') end
  end
  return self
end
function Normal:__repr() return repr_of(self, {'loc', 'scale'}) end
Normal.__props.batch_shape = function(self) return self.loc.shape end
Normal.__props.event_shape = function() return torch.Size({}) end
Normal.__props.mean = function(self) return self.loc end
Normal.__props.mode = function(self) return self.loc end
Normal.__props.stddev = function(self) return self.scale end
Normal.__props.variance = function(self) return self.scale:pow(2) end
function Normal:_extended_shape(sample_shape) return concat(sample_shape, shape_list(self.loc)) end
function Normal:sample(sample_shape)
  local shape = self:_extended_shape(size_of('sample', sample_shape))
  return torch.no_grad(function() return torch.normal(self.loc:expand(shape), self.scale:expand(shape)) end)
end
function Normal:rsample(sample_shape)
  local shape = self:_extended_shape(size_of('rsample', sample_shape))
  local eps = torch.empty(shape, {dtype = self.loc.dtype, device = self.loc.device}):normal_()
  return self.loc + eps * self.scale
end
function Normal:log_prob(value)
  value = as_tensor(value, self.loc)
  local var = self.scale ^ 2
  return -((value - self.loc) ^ 2) / (2 * var) - self.scale:log() - LOG_SQRT_2PI
end
function Normal:cdf(value)
  value = as_tensor(value, self.loc)
  return 0.5 * (1 + torch.erf((value - self.loc) * self.scale:reciprocal() / math.sqrt(2)))
end
function Normal:icdf(value)
  value = as_tensor(value, self.loc)
  return self.loc + self.scale * torch.erfinv(2 * value - 1) * math.sqrt(2)
end
function Normal:entropy() return 0.5 + 0.5 * math.log(2 * math.pi) + torch.log(self.scale) end

-- ---- Categorical -----------------------------------------------------------
local Categorical = dist_class('Categorical')
D.Categorical = Categorical
U.doc(Categorical, 'torch.distributions.Categorical(probs) or Categorical{logits=...}: a category index drawn with\n'
  .. '  probabilities probs (normalised over the last dim). Fields probs, logits, mean, variance, mode,\n'
  .. '  batch_shape; methods sample(shape), log_prob(index), entropy().')

local function clamp_probs(p)
  local eps = p.dtype == torch.float64 and 2.220446049250313e-16 or 1.1920928955078125e-07
  return p:clamp(eps, 1 - eps)
end
local function finfo_min(dt)
  return dt == torch.float64 and -1.7976931348623157e308 or -3.4028234663852886e38
end

function Categorical:new(...)
  local a = U.parse('Categorical', {'probs', 'logits', 'validate_args'}, nil, ...)
  if (a.probs == nil) == (a.logits == nil) then
    error('ValueError: Either `probs` or `logits` must be specified, but not both.', 0)
  end
  local self = setmetatable({}, self.__meta)
  if a.probs ~= nil then
    U.check('Categorical', 'probs', 'Tensor', a.probs)
    if a.probs:dim() < 1 then error('ValueError: `probs` parameter must be at least one-dimensional.', 0) end
    rawset(self, 'probs', a.probs / a.probs:sum(-1, true))
    if a.validate_args ~= false then
      local ok = a.probs:ge(0):all():item() and (a.probs:sum(-1) / a.probs:sum(-1)):isfinite():all():item()
      if not ok or not (self.probs:sum(-1) - 1):abs():le(1e-6):all():item() then
        invalid(self, 'probs', a.probs, 'Simplex()')
      end
    end
  else
    U.check('Categorical', 'logits', 'Tensor', a.logits)
    if a.logits:dim() < 1 then error('ValueError: `logits` parameter must be at least one-dimensional.', 0) end
    rawset(self, 'logits', a.logits - logsumexp_last(a.logits))
  end
  return self
end
function Categorical:__repr() return repr_of(self, {'probs', 'logits'}) end
local function param(self) return rawget(self, 'probs') or rawget(self, 'logits') end
Categorical.__props.probs = function(self)
  local p = rawget(self, 'logits'):softmax(-1)
  rawset(self, 'probs', p)
  return p
end
Categorical.__props.logits = function(self)
  local l = clamp_probs(rawget(self, 'probs')):log()
  rawset(self, 'logits', l)
  return l
end
Categorical.__props._num_events = function(self) return param(self).shape[-1] end
Categorical.__props.batch_shape = function(self)
  local s = shape_list(param(self))
  s[#s] = nil
  return torch.Size(s)
end
Categorical.__props.event_shape = function() return torch.Size({}) end
Categorical.__props.param_shape = function(self) return param(self).shape end
Categorical.__props.mean = function(self)
  return torch.full(shape_list(self.batch_shape), 0 / 0, {dtype = param(self).dtype, device = param(self).device})
end
Categorical.__props.variance = Categorical.__props.mean
Categorical.__props.mode = function(self) return self.probs:argmax(-1) end
function Categorical:sample(sample_shape)
  local ss = size_of('sample', sample_shape)
  local n = 1
  for _, v in ipairs(ss) do n = n * v end
  return torch.no_grad(function()
    local probs_2d = self.probs:reshape(-1, self._num_events)
    local samples_2d = torch.multinomial(probs_2d, n, true).T
    return samples_2d:reshape(concat(ss, shape_list(self.batch_shape)))
  end)
end
function Categorical:log_prob(value)
  local v = value:long():unsqueeze(-1)
  local lp = self.logits
  local shape = broadcast(v.shape, lp.shape)
  local vs = {table.unpack(shape)}
  vs[#vs] = 1
  return lp:expand(shape):gather(-1, v:expand(vs)):squeeze(-1)
end
function Categorical:entropy()
  local logits = self.logits:clamp(finfo_min(self.logits.dtype))
  return -(logits * self.probs):sum(-1)
end

-- ---- Multinomial -----------------------------------------------------------
local Multinomial = dist_class('Multinomial')
D.Multinomial = Multinomial
U.doc(Multinomial, 'torch.distributions.Multinomial(total_count=1, probs): counts of total_count draws over the\n'
  .. '  categories of probs. Fields mean, variance, probs, logits, total_count; methods sample(shape), log_prob(counts).\n'
  .. '  Multinomial(10, torch.ones(6) / 6):sample({3}) rolls a die ten times, three times over.')

function Multinomial:new(...)
  local a = U.parse('Multinomial', {'total_count', 'probs', 'logits', 'validate_args'}, {total_count = 1}, ...)
  if math.type(a.total_count) ~= 'integer' then
    error(('NotImplementedError: inhomogeneous total_count is not supported (got %s)'):format(U.type_name(a.total_count)), 0)
  end
  local self = setmetatable({total_count = a.total_count}, self.__meta)
  rawset(self, '_categorical', Categorical(a.probs, a.logits, {validate_args = a.validate_args}))
  return self
end
function Multinomial:__repr() return 'Multinomial()' end
Multinomial.__props.probs = function(self) return self._categorical.probs end
Multinomial.__props.logits = function(self) return self._categorical.logits end
Multinomial.__props.batch_shape = function(self) return self._categorical.batch_shape end
Multinomial.__props.event_shape = function(self) return torch.Size({self._categorical._num_events}) end
Multinomial.__props.mean = function(self) return self.probs * self.total_count end
Multinomial.__props.variance = function(self) return self.probs * (1 - self.probs) * self.total_count end
function Multinomial:sample(sample_shape)
  local ss = size_of('sample', sample_shape)
  local samples = self._categorical:sample(concat({self.total_count}, ss))
  -- (total_count, sample..., batch...) -> (sample..., batch..., total_count)
  local perm = {}
  for i = 1, samples:dim() - 1 do perm[i] = i end
  perm[#perm + 1] = 0
  samples = samples:permute(perm)
  local counts = torch.zeros(concat(ss, shape_list(self.probs)), {dtype = samples.dtype, device = samples.device})
  counts:scatter_add_(-1, samples, torch.ones_like(samples))
  return counts:type_as(self.probs)
end
-- log(n!) per element, for the integer counts log_prob takes (lgamma(n + 1)).
local function log_factorial(t)
  local flat = t:double():cpu():flatten():tolist()
  for i, n in ipairs(flat) do
    local s = 0
    for k = 2, math.floor(n) do s = s + math.log(k) end
    flat[i] = s
  end
  return torch.tensor(flat, {dtype = torch.float64}):reshape(t.shape):to(t.device, t.dtype)
end
function Multinomial:log_prob(value)
  local logits = self.logits
  local shape = broadcast(logits.shape, value.shape)
  logits, value = logits:expand(shape):clone(), value:expand(shape)
  local log_factorial_n = log_factorial(value:sum(-1))
  local log_factorial_xs = log_factorial(value):sum(-1)
  logits[value:eq(0):logical_and(logits:eq(-math.huge))] = 0
  local log_powers = (logits * value):sum(-1)
  return log_factorial_n - log_factorial_xs + log_powers
end
-- PyTorch's formula: n * H(categorical) - log(n!) + sum over the categories
-- and k = 1..n of Binomial(k; n, p_i) * log(k!), on the host in double.
function Multinomial:entropy()
  local n, probs = self.total_count, self.probs
  local k_ = self._categorical._num_events
  local cat = self._categorical:entropy()
  local flat = probs:double():cpu():reshape(-1, k_):tolist()
  local lf = {[0] = 0}
  for k = 1, n do lf[k] = lf[k - 1] + math.log(k) end
  local out = {}
  for r, row in ipairs(flat) do
    local s = 0
    for _, p in ipairs(row) do
      for k = 1, n do
        local logpmf = lf[n] - lf[k] - lf[n - k] + (k > 0 and k * math.log(p) or 0) + ((n - k) > 0 and (n - k) * math.log(1 - p) or 0)
        if p > 0 or k == 0 then s = s + math.exp(logpmf) * lf[k] end
      end
    end
    out[r] = s - lf[n]
  end
  local extra = torch.tensor(out, {dtype = torch.float64}):reshape(shape_list(self.batch_shape)):to(probs.device, probs.dtype)
  return cat * n + extra
end

-- PyTorch's submodules, as d2l 2.6 imports it: from torch.distributions.multinomial
-- import Multinomial is torch.distributions.multinomial.Multinomial here.
D.normal = {Normal = Normal}
D.categorical = {Categorical = Categorical}
D.multinomial = {Multinomial = Multinomial}
