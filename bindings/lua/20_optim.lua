-- torch.optim: Optimizer, SGD (momentum, nesterov, weight decay), Adam, AdamW, RMSprop, Adagrad.
-- Updates follow torch/optim/*.py (the single-tensor path) op for op, with
-- lerp_, addcmul_ and addcdiv_ rounding as PyTorch's (Note [Ternary ops]), so the
-- parameters are PyTorch's to the bit; they run in place under no_grad, so
-- parameters keep their identity.
--   local opt = torch.optim.SGD(model:parameters(), {lr = 0.1, momentum = 0.9})
--   opt:zero_grad(); loss:backward(); opt:step()
local U = torch._util
torch.optim = torch.optim or {}
local optim = torch.optim

local function make_meta(cls)
  return {__index = cls, __name = cls.__name, __tostring = function(self) return self:__tostring() end}
end
local Optimizer = U.class('Optimizer', nil, make_meta)
optim.Optimizer = Optimizer

function Optimizer.new(cls, ...)
  local self = setmetatable({}, cls.__meta)
  self:__init(...)
  return self
end

-- params: an array of tensors (e.g. model:parameters()) or of param groups
-- {params = {...}, lr = ...}; defaults fill what a group leaves out.
function Optimizer:__init(params, defaults, ...)
  if select('#', ...) > 0 then U.too_many('Optimizer.__init__', 2, 2 + select('#', ...)) end
  if defaults == nil and U.is_plain_table(params) and #params == 0 then  -- Optimizer{junk=1}: keywords
    for k in pairs(params) do
      if k ~= 'params' and k ~= 'defaults' then
        error(("TypeError: Optimizer.__init__() got an unexpected keyword argument '%s'"):format(k), 0)
      end
    end
    params, defaults = params.params, params.defaults
  end
  if type(params) == 'function' then  -- net.parameters without the call
    error("TypeError: 'method' object is not iterable", 0)
  end
  if type(params) ~= 'table' then
    error(('TypeError: params argument given to the optimizer should be an iterable of Tensors or dicts, but got %s')
      :format(U.kind(params)), 0)
  end
  local mt = getmetatable(params)
  if type(mt) == 'table' and mt.__is_module then  -- the model itself, not net:parameters()
    local iterable, n = pcall(function() return #params end)  -- a Sequential, a ModuleList
    if not iterable or n == 0 then error(("TypeError: '%s' object is not iterable"):format(params:_get_name()), 0) end
    error('TypeError: optimizer can only optimize Tensors, but one of the params is ' .. U.module_qualname(params[0]), 0)
  end
  self.defaults, self.state, self.param_groups = defaults, {}, {}
  if #params == 0 then error('ValueError: optimizer got an empty parameter list', 0) end
  if not U.is_plain_table(params[1]) then params = {{params = params}} end  -- a list of tensors, not of groups
  for _, g in ipairs(params) do self:add_param_group(g) end
end

function Optimizer:add_param_group(group)
  if type(group) ~= 'table' or U.is_tensor(group) then U.type_error('add_param_group', 'param_group', 'dict', group) end
  local g = {}
  for k, v in pairs(group) do g[k] = v end
  local ps = U.is_tensor(group.params) and {group.params} or group.params
  if type(ps) ~= 'table' then U.type_error('add_param_group', 'params', 'an iterable of Tensors', ps) end
  g.params = table.move(ps, 1, #ps, 1, {})
  for _, p in ipairs(g.params) do
    if not U.is_tensor(p) then
      error('TypeError: optimizer can only optimize Tensors, but one of the params is ' .. U.type_name(p), 0)
    end
    if not (p.is_leaf or p.retains_grad) then error("ValueError: can't optimize a non-leaf Tensor", 0) end
  end
  for k, v in pairs(self.defaults) do
    if g[k] == nil then g[k] = v end
  end
  for _, old in ipairs(self.param_groups) do
    for _, p in ipairs(old.params) do
      for _, q in ipairs(g.params) do
        if p == q then error('ValueError: some parameters appear in more than one parameter group', 0) end
      end
    end
  end
  self.param_groups[#self.param_groups + 1] = g
end

function Optimizer:zero_grad(...)
  local a = U.parse('zero_grad', {'set_to_none'}, {set_to_none = true}, ...)
  for _, g in ipairs(self.param_groups) do
    for _, p in ipairs(g.params) do
      local grad = p.grad
      if grad ~= nil then
        if a.set_to_none then p.grad = nil else U.with_grad_mode(false, grad.zero_, grad) end
      end
    end
  end
end

-- step(closure): closure re-evaluates the model and returns the loss.
function Optimizer:step(...)
  local closure = U.parse('step', {'closure'}, nil, ...).closure
  if closure ~= nil then U.check_callable('step', closure, 'closure') end
  local loss
  if closure ~= nil then loss = U.with_grad_mode(true, closure) end
  U.with_grad_mode(false, function()
    for _, g in ipairs(self.param_groups) do self:_update_group(g) end
  end)
  return loss
end

function Optimizer:_state(p)
  local st = self.state[p]
  if st == nil then st = {}; self.state[p] = st end
  return st
end

-- Python's str() of a hyper-parameter: None, True/False, tuples for betas.
local function pystr(v)
  if U.is_plain_table(v) then
    local parts = {}
    for i, x in ipairs(v) do parts[i] = pystr(x) end
    return '(' .. table.concat(parts, ', ') .. ')'
  end
  return U.repr(v)
end

-- Same layout as Optimizer.__repr__: keys sorted, None for unset options.
function Optimizer:__tostring()
  local out = {U.class_of(self).__name .. ' ('}
  for i, g in ipairs(self.param_groups) do
    if i > 1 then out[#out + 1] = '' end  -- a blank line between groups, as PyTorch's
    out[#out + 1] = ('Parameter Group %d'):format(i - 1)
    local keys, seen = {}, {params = true}
    for _, k in ipairs(self._print_keys or {}) do keys[#keys + 1] = k; seen[k] = true end
    for k in pairs(g) do
      if not seen[k] then keys[#keys + 1] = k end
    end
    table.sort(keys)
    for _, k in ipairs(keys) do out[#out + 1] = ('    %s: %s'):format(k, pystr(g[k])) end
  end
  out[#out + 1] = ')'
  return table.concat(out, '\n')
end

-- optim.X(params, {k=v}), optim.X(params, lr), optim.X{params, lr=...}.
local function parse(name, names, defaults, ...)
  local a = U.parse(name, {'params', table.unpack(names)}, defaults, ...)
  local params = a.params
  a.params = nil
  return params, a
end

local function check(ok, msg, v)
  if not ok then error(('ValueError: %s: %s'):format(msg, U.repr(v)), 0) end
end

-- Each parameter of group g that has a gradient, with the gradient negated
-- under maximize: the first step of every optimizer's update.
local function each_grad(g)
  local i = 0
  return function()
    while true do
      i = i + 1
      local p = g.params[i]
      if p == nil then return nil end
      if p.grad ~= nil then return p, g.maximize and -p.grad or p.grad end
    end
  end
end

-- ---- SGD -------------------------------------------------------------------
local SGD = Optimizer:extend('SGD')
optim.SGD = SGD
U.doc(SGD, 'torch.optim.SGD(params, {lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=false}): '
  .. 'opt:zero_grad(), opt:step().')
SGD._group_keys = {'lr', 'momentum', 'dampening', 'weight_decay', 'nesterov', 'maximize', 'foreach', 'differentiable',
                  'fused'}
SGD._state_keys = {'momentum_buffer'}
SGD._print_keys = {'dampening', 'differentiable', 'foreach', 'fused', 'lr', 'maximize', 'momentum', 'nesterov',
                   'weight_decay'}

function SGD:__init(...)
  local params, a = parse('SGD', {'lr:float', 'momentum:float', 'dampening:float', 'weight_decay:float',
                                  'nesterov:bool', 'maximize:bool', 'foreach', 'differentiable:bool', 'fused'},
    {lr = 1e-3, momentum = 0, dampening = 0, weight_decay = 0, nesterov = false, maximize = false,
     differentiable = false}, ...)
  check(a.lr >= 0, 'Invalid learning rate', a.lr)
  check(a.momentum >= 0, 'Invalid momentum value', a.momentum)
  check(a.weight_decay >= 0, 'Invalid weight_decay value', a.weight_decay)
  if a.nesterov and (a.momentum <= 0 or a.dampening ~= 0) then
    error('ValueError: Nesterov momentum requires a momentum and zero dampening', 0)
  end
  Optimizer.__init(self, params, a)
end

-- The momentum buffer starts as a copy of the first gradient (no dampening).
function SGD:_update_group(g)
  for p, d_p in each_grad(g) do
    if g.weight_decay ~= 0 then d_p = torch.add(d_p, p, {alpha = g.weight_decay}) end
    if g.momentum ~= 0 then
      local st = self:_state(p)
      local buf = st.momentum_buffer
      if buf == nil then
        buf = d_p:clone():detach()
        st.momentum_buffer = buf
      else
        buf:mul_(g.momentum):add_(d_p, {alpha = 1 - g.dampening})
      end
      d_p = g.nesterov and torch.add(d_p, buf, {alpha = g.momentum}) or buf
    end
    p:add_(d_p, {alpha = -g.lr})
  end
end

-- ---- Adam / AdamW ----------------------------------------------------------
local Adam = Optimizer:extend('Adam')
optim.Adam = Adam
U.doc(Adam, 'torch.optim.Adam(params, {lr=1e-3, betas={0.9, 0.999}, eps=1e-8, weight_decay=0, amsgrad=false}).')
Adam._group_keys = {'lr', 'betas', 'eps', 'weight_decay', 'amsgrad', 'maximize', 'foreach', 'capturable', 'differentiable',
                   'fused', 'decoupled_weight_decay'}
Adam._state_keys = {'step', 'exp_avg', 'exp_avg_sq', 'max_exp_avg_sq'}
Adam._print_keys = {'amsgrad', 'betas', 'capturable', 'decoupled_weight_decay', 'differentiable', 'eps', 'foreach',
                    'fused', 'lr', 'maximize', 'weight_decay'}
local adam_names = {'lr:float', 'betas', 'eps:float', 'weight_decay:float', 'amsgrad:bool', 'foreach', 'maximize:bool',
                    'capturable:bool', 'differentiable:bool', 'fused', 'decoupled_weight_decay:bool'}

local function adam_init(self, name, defaults, ...)
  local params, a = parse(name, adam_names, defaults, ...)
  if type(a.betas) ~= 'table' or type(a.betas[1]) ~= 'number' or type(a.betas[2]) ~= 'number' then
    U.type_error(name, 'betas', 'a pair of floats', a.betas)
  end
  check(a.lr >= 0, 'Invalid learning rate', a.lr)
  check(a.eps >= 0, 'Invalid epsilon value', a.eps)
  check(a.betas[1] >= 0 and a.betas[1] < 1, 'Invalid beta parameter at index 0', a.betas[1])
  check(a.betas[2] >= 0 and a.betas[2] < 1, 'Invalid beta parameter at index 1', a.betas[2])
  check(a.weight_decay >= 0, 'Invalid weight_decay value', a.weight_decay)
  Optimizer.__init(self, params, a)
end

function Adam:__init(...)
  adam_init(self, 'Adam', {lr = 1e-3, betas = {0.9, 0.999}, eps = 1e-8, weight_decay = 0, amsgrad = false,
                           maximize = false, capturable = false, differentiable = false,
                           decoupled_weight_decay = false}, ...)
end

function Adam:_update_group(g)
  local beta1, beta2 = g.betas[1], g.betas[2]
  for p, grad in each_grad(g) do
    local st = self:_state(p)
    if st.step == nil then
      st.step, st.exp_avg, st.exp_avg_sq = torch.tensor(0.0), torch.zeros_like(p), torch.zeros_like(p)
      if g.amsgrad then st.max_exp_avg_sq = torch.zeros_like(p) end
    end
    local step = st.step:add_(1):item()
    if g.weight_decay ~= 0 then
      if g.decoupled_weight_decay then p:mul_(1 - g.lr * g.weight_decay)
      else grad = torch.add(grad, p, {alpha = g.weight_decay}) end
    end
    st.exp_avg:lerp_(grad, 1 - beta1)
    st.exp_avg_sq:mul_(beta2):addcmul_(grad, grad, {value = 1 - beta2})
    local step_size = g.lr / (1 - beta1 ^ step)
    local bc2_sqrt = (1 - beta2 ^ step) ^ 0.5
    local sq = st.exp_avg_sq
    if g.amsgrad then
      st.max_exp_avg_sq:copy_(torch.maximum(st.max_exp_avg_sq, st.exp_avg_sq))
      sq = st.max_exp_avg_sq
    end
    local denom = (sq:sqrt() / bc2_sqrt):add_(g.eps)
    p:addcdiv_(st.exp_avg, denom, {value = -step_size})
  end
end

local AdamW = Adam:extend('AdamW')
optim.AdamW = AdamW
function AdamW:__init(...)
  adam_init(self, 'AdamW', {lr = 1e-3, betas = {0.9, 0.999}, eps = 1e-8, weight_decay = 1e-2, amsgrad = false,
                            maximize = false, capturable = false, differentiable = false,
                            decoupled_weight_decay = true}, ...)
end

-- ---- RMSprop -------------------------------------------------------------
-- PyTorch's single-tensor step: square_avg = alpha * square_avg + (1 - alpha) g^2
-- (centered: minus the square of the gradient's own average), p -= lr g / (sqrt + eps)
-- (with momentum: through a buffer).
local RMSprop = Optimizer:extend('RMSprop')
optim.RMSprop = RMSprop
U.doc(RMSprop, 'torch.optim.RMSprop(params, {lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=false}).')
RMSprop._group_keys = {'lr', 'momentum', 'alpha', 'eps', 'centered', 'weight_decay', 'capturable', 'foreach', 'maximize',
                      'differentiable'}
RMSprop._state_keys = {'step', 'square_avg', 'momentum_buffer', 'grad_avg'}
RMSprop._print_keys = {'alpha', 'capturable', 'centered', 'differentiable', 'eps', 'foreach', 'lr', 'maximize',
                       'momentum', 'weight_decay'}

function RMSprop:__init(...)
  local params, a = parse('RMSprop', {'lr:float', 'alpha:float', 'eps:float', 'weight_decay:float', 'momentum:float',
                                      'centered:bool', 'capturable:bool', 'foreach', 'maximize:bool',
                                      'differentiable:bool'},
    {lr = 1e-2, alpha = 0.99, eps = 1e-8, weight_decay = 0, momentum = 0, centered = false, capturable = false,
     maximize = false, differentiable = false}, ...)
  check(a.lr >= 0, 'Invalid learning rate', a.lr)
  check(a.eps >= 0, 'Invalid epsilon value', a.eps)
  check(a.momentum >= 0, 'Invalid momentum value', a.momentum)
  check(a.weight_decay >= 0, 'Invalid weight_decay value', a.weight_decay)
  check(a.alpha >= 0, 'Invalid alpha value', a.alpha)
  Optimizer.__init(self, params, a)
end

function RMSprop:_update_group(g)
  for p, grad in each_grad(g) do
    local st = self:_state(p)
    if st.step == nil then
      st.step, st.square_avg = torch.tensor(0.0), torch.zeros_like(p)
      if g.momentum > 0 then st.momentum_buffer = torch.zeros_like(p) end
      if g.centered then st.grad_avg = torch.zeros_like(p) end
    end
    st.step:add_(1)
    if g.weight_decay ~= 0 then grad = torch.add(grad, p, {alpha = g.weight_decay}) end
    st.square_avg:mul_(g.alpha):addcmul_(grad, grad, {value = 1 - g.alpha})
    local avg
    if g.centered then
      st.grad_avg:lerp_(grad, 1 - g.alpha)
      avg = st.square_avg:addcmul(st.grad_avg, st.grad_avg, {value = -1}):sqrt_()
    else
      avg = st.square_avg:sqrt()
    end
    avg:add_(g.eps)
    if g.momentum > 0 then
      st.momentum_buffer:mul_(g.momentum):addcdiv_(grad, avg)
      p:add_(st.momentum_buffer, {alpha = -g.lr})
    else
      p:addcdiv_(grad, avg, {value = -g.lr})
    end
  end
end

-- ---- Adagrad -------------------------------------------------------------
-- state_sum += g^2; p -= lr / (1 + (step - 1) lr_decay) * g / (sqrt(state_sum) + eps).
local Adagrad = Optimizer:extend('Adagrad')
optim.Adagrad = Adagrad
U.doc(Adagrad, 'torch.optim.Adagrad(params, {lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10}).')
Adagrad._group_keys = {'lr', 'lr_decay', 'eps', 'weight_decay', 'initial_accumulator_value', 'foreach', 'maximize',
                      'differentiable', 'fused'}
Adagrad._state_keys = {'step', 'sum'}
Adagrad._print_keys = {'differentiable', 'eps', 'foreach', 'fused', 'initial_accumulator_value', 'lr', 'lr_decay',
                       'maximize', 'weight_decay'}

function Adagrad:__init(...)
  local params, a = parse('Adagrad', {'lr:float', 'lr_decay:float', 'weight_decay:float',
                                      'initial_accumulator_value:float', 'eps:float', 'foreach', '*',
                                      'maximize:bool', 'differentiable:bool', 'fused'},
    {lr = 1e-2, lr_decay = 0, weight_decay = 0, initial_accumulator_value = 0, eps = 1e-10, maximize = false,
     differentiable = false}, ...)
  check(a.lr >= 0, 'Invalid learning rate', a.lr)
  check(a.lr_decay >= 0, 'Invalid lr_decay value', a.lr_decay)
  check(a.weight_decay >= 0, 'Invalid weight_decay value', a.weight_decay)
  check(a.initial_accumulator_value >= 0, 'Invalid initial_accumulator_value value', a.initial_accumulator_value)
  check(a.eps >= 0, 'Invalid epsilon value', a.eps)
  Optimizer.__init(self, params, a)
  -- PyTorch's Adagrad makes its state here, not at the first step: a
  -- state_dict taken before training already holds step 0 and the sums.
  for _, g in ipairs(self.param_groups) do
    for _, p in ipairs(g.params) do
      local st = self:_state(p)
      st.step, st.sum = torch.tensor(0.0), torch.full_like(p, g.initial_accumulator_value):detach()
    end
  end
end

function Adagrad:_update_group(g)
  for p, grad in each_grad(g) do
    local st = self:_state(p)
    if st.step == nil then st.step, st.sum = torch.tensor(0.0), torch.full_like(p, g.initial_accumulator_value) end
    local step = st.step:add_(1):item()
    if g.weight_decay ~= 0 then grad = torch.add(grad, p, {alpha = g.weight_decay}) end
    local clr = g.lr / (1 + (step - 1) * g.lr_decay)
    st.sum:addcmul_(grad, grad, {value = 1})
    p:addcdiv_(grad, st.sum:sqrt():add_(g.eps), {value = -clr})
  end
end
