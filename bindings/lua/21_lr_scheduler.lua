-- torch.optim.lr_scheduler: StepLR, MultiStepLR, ExponentialLR, LambdaLR and
-- CosineAnnealingLR, as PyTorch computes them: each step() moves last_epoch on
-- and sets every group's lr from its own recursive rule (the "chainable" form,
-- so the same floating-point values as PyTorch's get_last_lr()).
--   local sched = torch.optim.lr_scheduler.StepLR(opt, 30, {gamma=0.1})
--   for epoch = 1, n do train(opt); sched:step() end
local U = torch._util
local optim = torch.optim
local S = {}
optim.lr_scheduler = S

local function make_meta(cls)
  return {__index = cls, __name = cls.__name,
          __tostring = function(self) return ('<torch.optim.lr_scheduler.%s object at %s>'):format(cls.__name, ('%p'):format(self)) end}
end
local LRScheduler = U.class('LRScheduler', nil, make_meta)
S.LRScheduler = LRScheduler
function LRScheduler.new(cls, ...)
  local self = setmetatable({}, cls.__meta)
  self:__init(...)
  return self
end

-- The groups keep their initial_lr (PyTorch's key, printed with the optimizer);
-- construction is a step. A last_epoch other than -1 resumes, as PyTorch's
-- does: the groups must hold initial_lr already (an optimizer loaded from a
-- checkpoint), and the step taken here counts from last_epoch.
function LRScheduler:_start(name, optimizer, last_epoch)
  if type(optimizer) ~= 'table' or type(optimizer.param_groups) ~= 'table' then
    error(('TypeError: %s is not an Optimizer'):format(U.type_name(optimizer)), 0)
  end
  for i, g in ipairs(optimizer.param_groups) do
    if last_epoch == -1 then
      if g.initial_lr == nil then g.initial_lr = g.lr end
    elseif g.initial_lr == nil then
      error(('KeyError: "param \'initial_lr\' is not specified in param_groups[%d] when resuming scheduler with '
             .. 'last_epoch >= 0.\\nThis typically happens when:\\n1. You\'re trying to resume training from a '
             .. 'checkpoint but haven\'t properly loaded the optimizer state\\n2. You\'re using last_epoch >= 0 for '
             .. 'a fresh training run (not recommended)"'):format(i - 1), 0)
    end
  end
  self.optimizer = optimizer
  self.base_lrs = {}
  for i, g in ipairs(optimizer.param_groups) do self.base_lrs[i] = g.initial_lr end
  self.last_epoch = last_epoch
  self._step_count = 0
  -- PyTorch's _initial_mode: the first step keeps each group's lr where a rule
  -- would otherwise move it one step past a resumed last_epoch.
  self._is_initial = true
  local ok, err = pcall(self.step, self)
  self._is_initial = false
  if not ok then error(err, 0) end
end

function LRScheduler:step(...)
  U.parse('step', {}, nil, ...)
  self._step_count = self._step_count + 1
  self.last_epoch = self.last_epoch + 1
  local lrs = self:_lrs()
  for i, g in ipairs(self.optimizer.param_groups) do g.lr = lrs[i] end
  self._last_lr = lrs
end

function LRScheduler:get_last_lr()
  local r = {}
  for i, v in ipairs(self._last_lr) do r[i] = v end
  return r
end

-- Note [Scheduler state_dict]: PyTorch's is the scheduler's __dict__ less the
-- optimizer, in the order its __init__ sets them: the class's own settings
-- (_state_keys), then the keys every scheduler has (COMMON; _is_initial and
-- _get_lr_called_within_step are always False between calls). LambdaLR puts
-- lr_lambdas last, a None for each function (PyTorch saves no code). Loading
-- sets what it names, each key checked for its kind, so that a bad file is an
-- error here rather than in the next step(); keys a scheduler does not have are
-- kept and given back by state_dict, as PyTorch's __dict__.update does (never
-- over a method). A subclass's own fields (LRScheduler:extend) come after
-- COMMON, sorted, and load back into their fields.
local COMMON = {'base_lrs', 'last_epoch', '_step_count', '_is_initial', '_get_lr_called_within_step', '_last_lr'}
local KINDS = {base_lrs = 'numbers', _last_lr = 'numbers', last_epoch = 'int', _step_count = 'int', step_size = 'int',
               T_max = 'int', gamma = 'float', eta_min = 'float', _is_initial = 'bool',
               _get_lr_called_within_step = 'bool', milestones = 'counts', lr_lambdas = 'any'}
local FIXED = {_is_initial = false, _get_lr_called_within_step = false}

local function copy_list(t)
  local r = {}
  for i = 1, #t do r[i] = t[i] end
  return r
end

function LRScheduler:state_dict(...)
  if select('#', ...) > 0 then U.too_many('state_dict', 1, 1 + select('#', ...)) end
  local entries = {}
  local function put(k, v) entries[#entries + 1] = {k, v} end
  for _, k in ipairs(self._state_keys or {}) do put(k, self[k]) end
  for _, k in ipairs(COMMON) do
    local v = self[k]
    if FIXED[k] ~= nil then v = FIXED[k] elseif type(v) == 'table' then v = copy_list(v) end
    put(k, v)
  end
  -- a subclass's own fields (LRScheduler:extend), sorted: Lua keeps no order
  local own, listed = {}, {optimizer = true, lr_lambdas = true, _extra_state = true}
  for _, e in ipairs(entries) do listed[e[1]] = true end
  for k, v in pairs(self) do
    if type(k) == 'string' and not listed[k] and type(v) ~= 'function' then own[#own + 1] = k end
  end
  table.sort(own)
  for _, k in ipairs(own) do put(k, self[k]) end
  for _, kv in ipairs(self._extra_state or {}) do put(kv[1], kv[2]) end
  if self.lr_lambdas then put('lr_lambdas', U.nones(#self.lr_lambdas)) end
  return U.dict(entries)
end

local function check_kind(cls, k, v, kind)
  local ok
  if kind == 'int' then ok = math.type(v) == 'integer'
  elseif kind == 'float' then ok = type(v) == 'number'
  elseif kind == 'bool' then ok = type(v) == 'boolean'
  elseif kind == 'numbers' or kind == 'counts' then
    ok = type(v) == 'table' and (getmetatable(v) == nil or U.is_od(v) or U.is_counter(v))
    if ok then
      for key, x in pairs(v) do
        if kind == 'numbers' and type(x) ~= 'number' then ok = false end
        if kind == 'counts' and (math.type(key) ~= 'integer' or math.type(x) ~= 'integer') then ok = false end
      end
    end
  else ok = true end
  if not ok then
    local want = ({int = 'int', float = 'float', bool = 'bool', numbers = 'a list of numbers',
                   counts = 'a Counter of ints'})[kind]
    error(('TypeError: %s.load_state_dict(): \'%s\' must be %s, not %s'):format(cls, k, want, U.type_name(v)), 0)
  end
end

function LRScheduler:load_state_dict(state_dict, ...)
  if select('#', ...) > 0 then U.too_many('load_state_dict', 2, 2 + select('#', ...)) end
  if type(state_dict) ~= 'table' or U.is_tensor(state_dict) then
    error(("TypeError: '%s' object is not iterable"):format(U.type_name(state_dict)), 0)
  end
  local cls, mine = self.__name or getmetatable(self).__name, {}
  for _, k in ipairs(self._state_keys or {}) do mine[k] = true end
  for _, k in ipairs(COMMON) do mine[k] = true end
  local items = U.ordered_items(state_dict)
  for _, kv in ipairs(items) do  -- every check first: a bad file changes nothing
    local k, v = kv[1], kv[2]
    if mine[k] and KINDS[k] then check_kind(cls, k, v, KINDS[k]) end
  end
  local extra = {}
  for _, kv in ipairs(items) do
    local k, v = kv[1], kv[2]
    if k == 'lr_lambdas' and self.lr_lambdas then  -- PyTorch: None for a function, nothing to load
    elseif k == 'milestones' and mine[k] then
      local c = U.counter()
      for _, mc in ipairs(U.ordered_items(v)) do c[mc[1]] = mc[2] end
      self.milestones = c
    elseif mine[k] and FIXED[k] == nil then
      self[k] = type(v) == 'table' and copy_list(v) or v
    elseif not mine[k] and type(k) == 'string' and k ~= 'optimizer' and rawget(self, k) ~= nil
        and type(rawget(self, k)) ~= 'function' then  -- a subclass's own field
      self[k] = v
    elseif not mine[k] then
      extra[#extra + 1] = {k, v}
    end
  end
  self._extra_state = extra
end

-- A rule per group: f(group lr, base lr) -> new lr.
function LRScheduler:_map(f)
  local r = {}
  for i, g in ipairs(self.optimizer.param_groups) do r[i] = f(g.lr, self.base_lrs[i]) end
  return r
end

local function parse(name, names, defaults, ...)
  local a = U.parse(name, {'optimizer!', table.unpack(names)}, defaults, ...)
  return a
end

local StepLR = LRScheduler:extend('StepLR')
S.StepLR = StepLR
U.doc(StepLR, 'torch.optim.lr_scheduler.StepLR(optimizer, step_size, {gamma=0.1}): lr *= gamma every step_size steps.')
StepLR._state_keys = {'step_size', 'gamma'}
function StepLR:__init(...)
  local a = parse('StepLR', {'step_size:int!', 'gamma:float', 'last_epoch:int'}, {gamma = 0.1, last_epoch = -1}, ...)
  self.step_size, self.gamma = a.step_size, a.gamma
  self:_start('StepLR', a.optimizer, a.last_epoch)
end
function StepLR:_lrs()
  local e = self.last_epoch
  return self:_map(function(lr)
    if e == 0 or e % self.step_size ~= 0 then return lr end
    return lr * self.gamma
  end)
end

local MultiStepLR = LRScheduler:extend('MultiStepLR')
S.MultiStepLR = MultiStepLR
U.doc(MultiStepLR, 'torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones, {gamma=0.1}): lr *= gamma at each milestone (a repeated one counts again).')
MultiStepLR._state_keys = {'milestones', 'gamma'}
function MultiStepLR:__init(...)
  local a = parse('MultiStepLR', {'milestones!', 'gamma:float', 'last_epoch:int'}, {gamma = 0.1, last_epoch = -1}, ...)
  if type(a.milestones) ~= 'table' then U.type_error('MultiStepLR', 'milestones', 'a list of ints', a.milestones) end
  self.milestones = U.counter()
  for _, m in ipairs(a.milestones) do
    if math.type(m) ~= 'integer' then U.type_error('MultiStepLR', 'milestones', 'a list of ints', a.milestones) end
    self.milestones[m] = (self.milestones[m] or 0) + 1
  end
  self.gamma = a.gamma
  self:_start('MultiStepLR', a.optimizer, a.last_epoch)
end
function MultiStepLR:_lrs()
  local k = self.milestones[self.last_epoch]
  return self:_map(function(lr) return k and lr * self.gamma ^ k or lr end)
end

local ExponentialLR = LRScheduler:extend('ExponentialLR')
S.ExponentialLR = ExponentialLR
U.doc(ExponentialLR, 'torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma): lr *= gamma every step.')
ExponentialLR._state_keys = {'gamma'}
function ExponentialLR:__init(...)
  local a = parse('ExponentialLR', {'gamma:float!', 'last_epoch:int'}, {last_epoch = -1}, ...)
  self.gamma = a.gamma
  self:_start('ExponentialLR', a.optimizer, a.last_epoch)
end
function ExponentialLR:_lrs()
  return self:_map(function(lr) return self._is_initial and lr or lr * self.gamma end)
end

local LambdaLR = LRScheduler:extend('LambdaLR')
S.LambdaLR = LambdaLR
U.doc(LambdaLR, 'torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda): lr = initial lr * lr_lambda(epoch) (a function, or one per group).')
function LambdaLR:__init(...)
  local a = parse('LambdaLR', {'lr_lambda!', 'last_epoch:int'}, {last_epoch = -1}, ...)
  local n = #a.optimizer.param_groups
  if type(a.lr_lambda) == 'table' and getmetatable(a.lr_lambda) == nil then
    if #a.lr_lambda ~= n then
      error(('ValueError: Expected %d lr_lambdas, but got %d'):format(n, #a.lr_lambda), 0)
    end
    self.lr_lambdas = a.lr_lambda
  else
    U.check_callable('LambdaLR', a.lr_lambda)
    self.lr_lambdas = {}
    for i = 1, n do self.lr_lambdas[i] = a.lr_lambda end
  end
  self:_start('LambdaLR', a.optimizer, a.last_epoch)
end
function LambdaLR:_lrs()
  local r = {}
  for i = 1, #self.optimizer.param_groups do r[i] = self.base_lrs[i] * self.lr_lambdas[i](self.last_epoch) end
  return r
end

local CosineAnnealingLR = LRScheduler:extend('CosineAnnealingLR')
S.CosineAnnealingLR = CosineAnnealingLR
U.doc(CosineAnnealingLR, 'torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max, {eta_min=0}): lr follows a cosine from the initial lr down to eta_min over T_max steps, and back.')
CosineAnnealingLR._state_keys = {'T_max', 'eta_min'}
function CosineAnnealingLR:__init(...)
  local a = parse('CosineAnnealingLR', {'T_max:int!', 'eta_min:float', 'last_epoch:int'}, {eta_min = 0.0, last_epoch = -1}, ...)
  self.T_max, self.eta_min = a.T_max, a.eta_min
  self:_start('CosineAnnealingLR', a.optimizer, a.last_epoch)
end
-- PyTorch's recursive form (what its get_last_lr() returns, to the last bit).
function CosineAnnealingLR:_lrs()
  local e, T, eta = self.last_epoch, self.T_max, self.eta_min
  return self:_map(function(lr, base)
    if self._is_initial then return lr end
    if self._step_count == 1 and e > 0 then return eta + (base - eta) * (1 + math.cos(e * math.pi / T)) / 2 end
    if (e - 1 - T) % (2 * T) == 0 then return lr + (base - eta) * (1 - math.cos(math.pi / T)) / 2 end
    return (1 + math.cos(math.pi * e / T)) / (1 + math.cos(math.pi * (e - 1) / T)) * (lr - eta) + eta
  end)
end
