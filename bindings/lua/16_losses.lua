-- The losses beyond mse_loss and cross_entropy (those are C++ ops): nll_loss,
-- binary_cross_entropy (with logits), l1_loss, smooth_l1_loss, huber_loss, as
-- PyTorch computes them, composed from tensor ops, their nodes named as
-- PyTorch names them; and their modules (NLLLoss, BCELoss, ...).
local U = torch._util
local nn = torch.nn
local F = nn.functional

local function reduce(name, l, reduction)
  if reduction == 'none' then return l end
  if reduction == 'sum' then return l:sum() end
  if reduction == 'mean' then return l:mean() end
  error(('ValueError: %s is not a valid value for reduction'):format(tostring(reduction)), 0)
end
local function named(t, node)
  if t.grad_fn ~= nil then torch._rename_grad_fn(t, node) end
  return t
end
-- PyTorch's legacy dtype name, as its loss kernels print it: Float, Long, ...
-- The casts of torch.autocast (Note [Autocast]) that PyTorch's C++ losses
-- make: float32 for all of these.
local autocast = torch._autocast
local function legacy(t) return t:type():match('(%a+)Tensor$') end
local function same_size(name, input, target)
  if tostring(input.shape) ~= tostring(target.shape) then
    error(('ValueError: Target size (%s) must be the same as input size (%s)'):format(tostring(target.shape), tostring(input.shape)), 0)
  end
end

function F.binary_cross_entropy_with_logits(...)
  local a = U.parse('binary_cross_entropy_with_logits', {'input:Tensor!', 'target:Tensor!', 'weight:Tensor',
    'size_average', 'reduce', 'reduction:str', 'pos_weight:Tensor'}, {reduction = 'mean'}, ...)
  local x, y = a.input, a.target
  same_size('binary_cross_entropy_with_logits', x, y)
  -- the loss is written into the target's dtype: an integer target cannot hold it, and a bool
  -- one fails first at PyTorch's C++ 1 - target, two bool tensors
  if tostring(y.dtype) == 'torch.bool' then
    error('NotImplementedError: Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or '
      .. '`logical_xor()` operator instead.', 0)
  elseif not y:is_floating_point() then
    error(("RuntimeError: result type %s can't be cast to the desired output type %s"):format(legacy(x), legacy(y)), 0)
  end
  x, y, a.weight, a.pos_weight = autocast('F.binary_cross_entropy_with_logits', x, y, a.weight, a.pos_weight)
  -- PyTorch's stable form: (1 - y) x + log(1 + exp(-x)), the log through softplus of -x
  local l
  if a.pos_weight ~= nil then
    local lw = (a.pos_weight - 1) * y + 1
    l = (1 - y) * x + lw * ((-(x:abs())):exp():log1p() + (-x):clamp(0))
  else
    l = (1 - y) * x + (-(x:abs())):exp():log1p() + (-x):clamp(0)
  end
  if a.weight ~= nil then l = l * a.weight end
  return named(reduce('binary_cross_entropy_with_logits', l, a.reduction), 'BinaryCrossEntropyWithLogitsBackward0')
end

function F.binary_cross_entropy(...)
  local a = U.parse('binary_cross_entropy', {'input:Tensor!', 'target:Tensor!', 'weight:Tensor', 'size_average', 'reduce',
    'reduction:str'}, {reduction = 'mean'}, ...)
  local p, y = a.input, a.target
  if tostring(p.shape) ~= tostring(y.shape) then  -- Python's check, worded apart from the logits form's
    error(('ValueError: Using a target size (%s) that is different to the input size (%s) is deprecated. Please '
      .. 'ensure they have the same size.'):format(tostring(y.shape), tostring(p.shape)), 0)
  end
  if tostring(p.dtype) ~= tostring(y.dtype) then
    error(('RuntimeError: Found dtype %s but expected %s'):format(legacy(y), legacy(p)), 0)
  end
  p, y, a.weight = autocast('F.binary_cross_entropy', p, y, a.weight)  -- an error on CUDA
  local lo, hi = p:min():item(), p:max():item()
  if p:numel() > 0 and (lo < 0 or hi > 1) then
    error('RuntimeError: all elements of input should be between 0 and 1', 0)
  end
  -- PyTorch clamps each log at -100
  local l = -(y * p:log():clamp(-100) + (1 - y) * (1 - p):log():clamp(-100))
  if a.weight ~= nil then l = l * a.weight end
  return named(reduce('binary_cross_entropy', l, a.reduction), 'BinaryCrossEntropyBackward0')
end

-- PyTorch's F.l1_loss, smooth_l1_loss and huber_loss warn before they
-- broadcast, as mse_loss does (tensor/ops/nn_ops.cpp).
local function warn_sizes(input, target)
  if tostring(input.shape) ~= tostring(target.shape) then
    torch._warn(('Using a target size (%s) that is different to the input size (%s). This will likely lead to '
      .. 'incorrect results due to broadcasting. Please ensure they have the same size.'):format(
      tostring(target.shape), tostring(input.shape)), 2)  -- the site: the loss function's caller
  end
end

function F.l1_loss(...)
  local a = U.parse('l1_loss', {'input:Tensor!', 'target:Tensor!', 'size_average', 'reduce', 'reduction:str'},
    {reduction = 'mean'}, ...)
  warn_sizes(a.input, a.target)
  a.input, a.target = autocast('F.l1_loss', a.input, a.target)
  return reduce('l1_loss', (a.input - a.target):abs(), a.reduction)
end

function F.smooth_l1_loss(...)
  local a = U.parse('smooth_l1_loss', {'input:Tensor!', 'target:Tensor!', 'size_average', 'reduce', 'reduction:str',
    'beta:float'}, {reduction = 'mean', beta = 1.0}, ...)
  if a.beta ~= 0 then warn_sizes(a.input, a.target) end  -- beta 0 is l1_loss, which warns
  if a.beta < 0 then error('RuntimeError: smooth_l1_loss does not support negative values for beta.', 0) end
  if a.beta == 0 then return named(F.l1_loss(a.input, a.target, {reduction = a.reduction}), 'SmoothL1LossBackward0') end
  a.input, a.target = autocast('F.smooth_l1_loss', a.input, a.target)
  -- 0.5 d^2 / beta where d < beta, else d - 0.5 beta
  local d = (a.input - a.target):abs()
  local l = torch.where(d:lt(a.beta), d * d * (0.5 / a.beta), d - 0.5 * a.beta)
  return named(reduce('smooth_l1_loss', l, a.reduction), 'SmoothL1LossBackward0')
end

function F.huber_loss(...)
  local a = U.parse('huber_loss', {'input:Tensor!', 'target:Tensor!', 'reduction:str', 'delta:float', 'weight:Tensor'},
    {reduction = 'mean', delta = 1.0}, ...)
  warn_sizes(a.input, a.target)
  if a.delta <= 0 then error('RuntimeError: huber_loss does not support non-positive values for delta.', 0) end
  a.input, a.target, a.weight = autocast('F.huber_loss', a.input, a.target, a.weight)
  -- 0.5 d^2 where d < delta, else delta (d - 0.5 delta)
  local d = (a.input - a.target):abs()
  local l = torch.where(d:lt(a.delta), d * d * 0.5, (d - 0.5 * a.delta) * a.delta)
  if a.weight ~= nil then l = l * a.weight end
  return named(reduce('huber_loss', l, a.reduction), 'HuberLossBackward0')
end

function F.nll_loss(...)
  local a = U.parse('nll_loss', {'input:Tensor!', 'target:Tensor!', 'weight:Tensor', 'size_average', 'ignore_index:int',
    'reduce', 'reduction:str'}, {reduction = 'mean', ignore_index = -100}, ...)
  local x, t = a.input, a.target
  x, a.weight = autocast('F.nll_loss', x, a.weight)
  if x:dim() ~= 1 and x:dim() ~= 2 then
    error(('NotImplementedError: gpulab: nll_loss expects input of shape (C) or (N, C), got %s'):format(tostring(x.shape)), 0)
  end
  local xs = x:dim() == 1 and x:unsqueeze(0) or x
  local ts = t:dim() == 0 and t:unsqueeze(0) or t
  -- PyTorch's order, as cross_entropy's: batch size, then the target's rank, then its dtype
  if ts:size(0) ~= xs:size(0) then
    error(('ValueError: Expected input batch_size (%d) to match target batch_size (%d).'):format(xs:size(0), ts:size(0)), 0)
  end
  if ts:dim() ~= 1 then error('RuntimeError: 0D or 1D target tensor expected, multi-target not supported', 0) end
  if t.dtype ~= torch.int64 and t.dtype ~= torch.uint8 then
    error('RuntimeError: expected target dtype to be Long or Byte, but got ' .. legacy(t), 0)
  end
  ts = ts:long()  -- a Byte target indexes as a Long one
  local keep = ts:ne(a.ignore_index)
  local safe = torch.where(keep, ts, 0)
  local C = xs:size(1)
  if safe:numel() > 0 and (safe:min():item() < 0 or safe:max():item() >= C) then
    error(('IndexError: Target %d is out of bounds.'):format(safe:lt(0):any():item() and safe:min():item() or safe:max():item()), 0)
  end
  local w = a.weight ~= nil and a.weight:index_select(0, safe) or torch.ones(safe:numel(), {dtype = x.dtype, device = x.device})
  w = w * keep:to(x.dtype)
  local l = -(xs:gather(1, safe:unsqueeze(1)):squeeze(1)) * w
  local r
  if a.reduction == 'none' then r = x:dim() == 1 and l:squeeze(0) or l
  elseif a.reduction == 'sum' then r = l:sum()
  elseif a.reduction == 'mean' then r = l:sum() / w:sum()
  else error(('ValueError: %s is not a valid value for reduction'):format(tostring(a.reduction)), 0) end
  return named(r, 'NllLossBackward0')
end

for name, text in pairs({
  binary_cross_entropy_with_logits = "(input, target, {weight=, reduction='mean', pos_weight=}): sigmoid and binary cross-entropy in one stable step",
  binary_cross_entropy = "(input, target, {weight=, reduction='mean'}): -(y log p + (1 - y) log(1 - p)), p in [0, 1], each log at least -100",
  l1_loss = "(input, target, {reduction='mean'}): |input - target|",
  smooth_l1_loss = "(input, target, {reduction='mean', beta=1}): 0.5 d^2 / beta below beta, else d - 0.5 beta (d = |input - target|)",
  huber_loss = "(input, target, {reduction='mean', delta=1}): 0.5 d^2 below delta, else delta (d - 0.5 delta)",
  nll_loss = "(input, target, {weight=, ignore_index=-100, reduction='mean'}): -input[i, target[i]], for log-probabilities (C) or (N, C)",
}) do
  torch._set_doc(F[name], 'F.' .. name .. text .. '; reduction: \'none\', \'mean\' or \'sum\'.')
end

local loss = U.loss_module
loss('BCEWithLogitsLoss', F.binary_cross_entropy_with_logits,
  {'weight:Tensor', 'size_average', 'reduce', 'reduction:str', 'pos_weight:Tensor'}, {'weight', 'pos_weight'})
loss('BCELoss', F.binary_cross_entropy, {'weight:Tensor', 'size_average', 'reduce', 'reduction:str'}, {'weight'})
loss('L1Loss', F.l1_loss, {'size_average', 'reduce', 'reduction:str'}, {})
loss('SmoothL1Loss', F.smooth_l1_loss, {'size_average', 'reduce', 'reduction:str', 'beta:float'}, {'beta'})
loss('HuberLoss', F.huber_loss, {'reduction:str', 'delta:float'}, {'delta'})
loss('NLLLoss', F.nll_loss, {'weight:Tensor', 'size_average', 'ignore_index:int', 'reduce', 'reduction:str'},
  {'weight', 'ignore_index'})
