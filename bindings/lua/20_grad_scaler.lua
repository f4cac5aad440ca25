-- torch.amp.GradScaler: loss scaling for float16 training, PyTorch's
-- algorithm step for step (torch/amp/grad_scaler.py). A float16 gradient
-- underflows below 6e-8; the loss is multiplied by a large scale before
-- backward, and the gradients divided by it before the optimizer reads them.
-- A step whose gradients overflowed (inf or nan) is skipped and the scale
-- halved; after growth_interval good steps it doubles.
-- The scale and the overflow flag stay on the device (tensor/ops/amp.h):
-- step() reads the flag, the one wait for the device per step, as in PyTorch.
local U = torch._util
local amp = torch.amp

local READY, UNSCALED, STEPPED = 'READY', 'UNSCALED', 'STEPPED'

local GradScaler = U.class('GradScaler', nil, function(cls) return {__index = cls, __name = cls.__name} end)
U.class_modules.GradScaler = 'torch.amp.grad_scaler'
amp.GradScaler = GradScaler
GradScaler.__meta.__tostring = function(self) return ('<torch.amp.grad_scaler.GradScaler object at %p>'):format(self) end

local NAMES = {'device', 'init_scale:float', 'growth_factor:float', 'backoff_factor:float', 'growth_interval:int',
               'enabled:bool'}
local DEFAULTS = {device = 'cuda', init_scale = 2.0 ^ 16, growth_factor = 2.0, backoff_factor = 0.5,
                  growth_interval = 2000, enabled = true}

local function fresh_states() return setmetatable({}, {__mode = 'k'}) end

local function init(self, a)
  self._device, self._enabled = a.device, a.enabled
  if self._device == 'cuda' and self._enabled and not torch.cuda.is_available() then
    -- init is tail-called (by new, and by the deprecated spellings): level 1 is their caller
    torch._warn('torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.', 1)
    self._enabled = false
  end
  if self._enabled then
    if a.growth_factor <= 1.0 then error('AssertionError: The growth factor must be > 1.0.', 0) end
    if a.backoff_factor >= 1.0 then error('AssertionError: The backoff factor must be < 1.0.', 0) end
    self._init_scale, self._growth_factor, self._backoff_factor = a.init_scale, a.growth_factor, a.backoff_factor
    self._growth_interval, self._init_growth_tracker = a.growth_interval, 0
    self._per_optimizer_states = fresh_states()
  end
  return self
end

function GradScaler.new(cls, ...)
  return init(setmetatable({}, cls.__meta), U.parse('GradScaler', NAMES, DEFAULTS, ...))
end

-- The per-optimizer stage and overflow flags, made on first use (Python's defaultdict).
local function opt_state(self, optimizer)
  local s = self._per_optimizer_states[optimizer]
  if s == nil then
    s = {stage = READY, found_inf_per_device = {}}
    self._per_optimizer_states[optimizer] = s
  end
  return s
end

local function check_scale(self, funcname)
  if self._scale == nil then
    error(('AssertionError: Attempted %s but _scale is None.  This may indicate your script did not use '
      .. 'scaler.scale(loss or outputs) earlier in the iteration.'):format(funcname), 0)
  end
  return self._scale, self._growth_tracker
end

-- scale(outputs): outputs times the scale; a tensor, or a (nested) list of them.
function GradScaler:scale(outputs)
  if not self._enabled then return outputs end
  local function apply(v)
    if U.is_tensor(v) then
      if self._scale == nil then
        self._scale = torch.full({}, self._init_scale, {dtype = torch.float32, device = v.device})
        self._growth_tracker = torch.full({}, self._init_growth_tracker, {dtype = torch.int32, device = v.device})
      end
      return v * self._scale:to(v.device)
    elseif type(v) == 'table' and getmetatable(v) == nil then
      local out = {}
      for i, x in ipairs(v) do out[i] = apply(x) end
      return out
    end
    error('ValueError: outputs must be a Tensor or an iterable of Tensors', 0)
  end
  return apply(outputs)
end

-- The gradients of optimizer's parameters, unscaled in place by device and
-- dtype; returns the overflow flag of each device.
local function unscale_grads(optimizer, inv_scale, found_inf, allow_fp16)
  local groups, order = {}, {}
  for _, group in ipairs(optimizer.param_groups) do
    for _, p in ipairs(group.params) do
      local g = p.grad
      if g ~= nil then
        if not allow_fp16 and g.dtype == torch.float16 then error('ValueError: Attempting to unscale FP16 gradients.', 0) end
        local key = tostring(g.device) .. '/' .. tostring(g.dtype)
        if groups[key] == nil then
          groups[key] = {device = g.device}
          order[#order + 1] = key
        end
        table.insert(groups[key], g)
      end
    end
  end
  local per_device = {}
  torch.no_grad(function()
    for _, key in ipairs(order) do
      local grads = groups[key]
      local dev = tostring(grads.device)
      per_device[dev] = per_device[dev] or found_inf:to(grads.device, {copy = true})
      grads.device = nil
      torch._amp_foreach_non_finite_check_and_unscale_(grads, per_device[dev], inv_scale:to(grads[1].device))
    end
  end)
  return per_device
end

-- unscale_(optimizer): divides the gradients by the scale now (before
-- clipping them, say); step() then does not do it again.
function GradScaler:unscale_(optimizer)
  if not self._enabled then return end
  check_scale(self, 'unscale_')
  local s = opt_state(self, optimizer)
  if s.stage == UNSCALED then
    error('RuntimeError: unscale_() has already been called on this optimizer since the last update().', 0)
  elseif s.stage == STEPPED then
    error('RuntimeError: unscale_() is being called after step().', 0)
  end
  local inv_scale = self._scale:double():reciprocal():float()
  local found_inf = torch.full({}, 0.0, {dtype = torch.float32, device = self._scale.device})
  s.found_inf_per_device = unscale_grads(optimizer, inv_scale, found_inf, false)
  s.stage = UNSCALED
end

-- step(optimizer, ...): optimizer:step(...) unless the gradients overflowed.
function GradScaler:step(optimizer, ...)
  if not self._enabled then return optimizer:step(...) end
  local n = select('#', ...)
  local kw = n > 0 and select(n, ...) or nil
  if U.is_plain_table(kw) and kw.closure ~= nil then
    error('RuntimeError: Closure use is not currently supported if GradScaler is enabled.', 0)
  end
  check_scale(self, 'step')
  local s = opt_state(self, optimizer)
  if s.stage == STEPPED then error('RuntimeError: step() has already been called since the last update().', 0) end
  if s.stage == READY then self:unscale_(optimizer) end
  if next(s.found_inf_per_device) == nil then
    error('AssertionError: No inf checks were recorded for this optimizer.', 0)
  end
  local found = 0
  for _, f in pairs(s.found_inf_per_device) do found = found + f:item() end
  local ret
  if found == 0 then ret = optimizer:step(...) end
  s.stage = STEPPED
  return ret
end

-- update(new_scale=None): the scale for the next iteration.
function GradScaler:update(new_scale)
  if not self._enabled then return end
  local scale, tracker = check_scale(self, 'update')
  if new_scale ~= nil then
    if type(new_scale) == 'number' then
      scale:fill_(new_scale)
    else
      local reason = 'AssertionError: new_scale should be a float or a 1-element torch.cuda.FloatTensor or '
        .. 'torch.FloatTensor with requires_grad=False.'
      if not U.is_tensor(new_scale) or new_scale.device.type ~= self._device or new_scale:numel() ~= 1
        or new_scale.requires_grad then error(reason, 0) end
      scale:copy_(new_scale)
    end
  else
    local combined
    for _, st in pairs(self._per_optimizer_states) do
      for _, f in pairs(st.found_inf_per_device) do
        local f_here = f:to(scale.device)
        combined = combined and combined + f_here or f_here
      end
    end
    if combined == nil then error('AssertionError: No inf checks were recorded prior to update.', 0) end
    torch._amp_update_scale_(scale, tracker, combined, self._growth_factor, self._backoff_factor,
      self._growth_interval)
  end
  self._per_optimizer_states = fresh_states()
end

function GradScaler:get_scale()
  if not self._enabled then return 1.0 end
  return self._scale == nil and self._init_scale or self._scale:item()
end
function GradScaler:get_growth_factor() return self._growth_factor end
function GradScaler:set_growth_factor(v) self._growth_factor = v end
function GradScaler:get_backoff_factor() return self._backoff_factor end
function GradScaler:set_backoff_factor(v) self._backoff_factor = v end
function GradScaler:get_growth_interval() return self._growth_interval end
function GradScaler:set_growth_interval(v) self._growth_interval = v end
function GradScaler:is_enabled() return self._enabled end
function GradScaler:_get_growth_tracker()
  if not self._enabled then return 0 end
  return self._growth_tracker == nil and self._init_growth_tracker or self._growth_tracker:item()
end

-- state_dict(): what a checkpoint keeps (torch.save it with the model's).
function GradScaler:state_dict()
  if not self._enabled then return {} end
  return {scale = self:get_scale(), growth_factor = self._growth_factor, backoff_factor = self._backoff_factor,
          growth_interval = self._growth_interval, _growth_tracker = self:_get_growth_tracker()}
end

function GradScaler:load_state_dict(sd)
  if not self._enabled then return end
  if next(sd) == nil then
    error('RuntimeError: The source state dict is empty, possibly because it was saved from a disabled instance '
      .. 'of GradScaler.', 0)
  end
  self._init_scale = sd.scale
  if self._scale ~= nil then self._scale:fill_(sd.scale) end
  self._growth_factor, self._backoff_factor = sd.growth_factor, sd.backoff_factor
  self._growth_interval, self._init_growth_tracker = sd.growth_interval, sd._growth_tracker
  if self._growth_tracker ~= nil then self._growth_tracker:fill_(sd._growth_tracker) end
end

-- torch.cuda.amp.GradScaler(...) and torch.cpu.amp.GradScaler(...): deprecated spellings.
local function deprecated(device)
  return function(...)
    torch._warn(("`torch.%s.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('%s', "
      .. 'args...)` instead.'):format(device, device), 1, 'FutureWarning')
    local a = U.parse('GradScaler', {'init_scale:float', 'growth_factor:float', 'backoff_factor:float',
      'growth_interval:int', 'enabled:bool'}, DEFAULTS, ...)
    a.device = device
    return init(setmetatable({}, GradScaler.__meta), a)
  end
end
torch.cuda.amp.GradScaler = deprecated('cuda')
torch.cpu.amp.GradScaler = deprecated('cpu')
