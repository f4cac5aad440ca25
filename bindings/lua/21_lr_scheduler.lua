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
-- construction is step 0.
function LRScheduler:_start(name, optimizer, last_epoch)
  if type(optimizer) ~= 'table' or type(optimizer.param_groups) ~= 'table' then
    error(('TypeError: %s is not an Optimizer'):format(U.type_name(optimizer)), 0)
  end
  if last_epoch ~= -1 then
    error(('NotImplementedError: gpulab: %s with last_epoch=%s (resuming) is not supported yet'):format(name, tostring(last_epoch)), 0)
  end
  self.optimizer = optimizer
  self.base_lrs = {}
  for i, g in ipairs(optimizer.param_groups) do
    if g.initial_lr == nil then g.initial_lr = g.lr end
    self.base_lrs[i] = g.initial_lr
  end
  self.last_epoch = -1
  self:step()
end

function LRScheduler:step(...)
  U.parse('step', {}, nil, ...)
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
function MultiStepLR:__init(...)
  local a = parse('MultiStepLR', {'milestones!', 'gamma:float', 'last_epoch:int'}, {gamma = 0.1, last_epoch = -1}, ...)
  if type(a.milestones) ~= 'table' then U.type_error('MultiStepLR', 'milestones', 'a list of ints', a.milestones) end
  self.milestones = {}
  for _, m in ipairs(a.milestones) do self.milestones[m] = (self.milestones[m] or 0) + 1 end
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
function ExponentialLR:__init(...)
  local a = parse('ExponentialLR', {'gamma:float!', 'last_epoch:int'}, {last_epoch = -1}, ...)
  self.gamma = a.gamma
  self:_start('ExponentialLR', a.optimizer, a.last_epoch)
end
function ExponentialLR:_lrs()
  local e = self.last_epoch
  return self:_map(function(lr) return e == 0 and lr or lr * self.gamma end)
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
function CosineAnnealingLR:__init(...)
  local a = parse('CosineAnnealingLR', {'T_max:int!', 'eta_min:float', 'last_epoch:int'}, {eta_min = 0, last_epoch = -1}, ...)
  self.T_max, self.eta_min = a.T_max, a.eta_min
  self:_start('CosineAnnealingLR', a.optimizer, a.last_epoch)
end
-- PyTorch's recursive form (what its get_last_lr() returns, to the last bit).
function CosineAnnealingLR:_lrs()
  local e, T, eta = self.last_epoch, self.T_max, self.eta_min
  return self:_map(function(lr, base)
    if e == 0 then return lr end
    if (e - 1 - T) % (2 * T) == 0 then return lr + (base - eta) * (1 - math.cos(math.pi / T)) / 2 end
    return (1 + math.cos(math.pi * e / T)) / (1 + math.cos(math.pi * (e - 1) / T)) * (lr - eta) + eta
  end)
end
