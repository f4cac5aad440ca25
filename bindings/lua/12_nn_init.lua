-- nn.init: in-place initialisers, computed as torch/nn/init.py does (same
-- bounds to the last bit, same order of random draws), run under no_grad so
-- they work on parameters. Each returns the tensor it filled.
local U = torch._util
local init = {}
torch.nn.init = init

local function no_grad(fn, ...) return U.with_grad_mode(false, fn, ...) end

local linear_fns = {linear = true, conv1d = true, conv2d = true, conv3d = true, conv_transpose1d = true,
                    conv_transpose2d = true, conv_transpose3d = true, sigmoid = true}

function init.calculate_gain(...)
  local a = U.parse('calculate_gain', {'nonlinearity!', 'param'}, nil, ...)
  local nonlinearity, param = a.nonlinearity, a.param
  if linear_fns[nonlinearity] then return 1 end
  if nonlinearity == 'tanh' then return 5.0 / 3 end
  if nonlinearity == 'relu' then return math.sqrt(2.0) end
  if nonlinearity == 'leaky_relu' then
    local slope = param
    if slope == nil then slope = 0.01 end
    if type(slope) ~= 'number' then error(('ValueError: negative_slope %s not a valid number'):format(tostring(param)), 0) end
    return math.sqrt(2.0 / (1 + slope ^ 2))
  end
  if nonlinearity == 'selu' then return 3.0 / 4 end
  error(('ValueError: Unsupported nonlinearity %s'):format(tostring(nonlinearity)), 0)
end

function init._calculate_fan_in_and_fan_out(t)
  local nd = t:dim()
  if nd < 2 then
    error('ValueError: Fan in and fan out can not be computed for tensor with fewer than 2 dimensions', 0)
  end
  local receptive = 1
  for d = 2, nd - 1 do receptive = receptive * t:size(d) end
  return t:size(1) * receptive, t:size(0) * receptive
end

local function correct_fan(t, mode)
  mode = mode:lower()
  if mode ~= 'fan_in' and mode ~= 'fan_out' then
    error(('ValueError: Mode %s not supported, please use one of [\'fan_in\', \'fan_out\']'):format(mode), 0)
  end
  local fan_in, fan_out = init._calculate_fan_in_and_fan_out(t)
  return mode == 'fan_in' and fan_in or fan_out
end

function init.uniform_(...)
  local a = U.parse('uniform_', {'tensor:Tensor!', 'a:float', 'b:float'}, {a = 0.0, b = 1.0}, ...)
  return no_grad(function() return a.tensor:uniform_(a.a, a.b) end)
end

function init.normal_(...)
  local a = U.parse('normal_', {'tensor:Tensor!', 'mean:float', 'std:float'}, {mean = 0.0, std = 1.0}, ...)
  return no_grad(function() return a.tensor:normal_(a.mean, a.std) end)
end

function init.constant_(...)
  local a = U.parse('constant_', {'tensor:Tensor!', 'val!'}, nil, ...)
  return no_grad(function() return a.tensor:fill_(a.val) end)
end
function init.zeros_(...)
  local a = U.parse('zeros_', {'tensor:Tensor!'}, nil, ...)
  return no_grad(function() return a.tensor:zero_() end)
end
function init.ones_(...)
  local a = U.parse('ones_', {'tensor:Tensor!'}, nil, ...)
  return no_grad(function() return a.tensor:fill_(1) end)
end

function init.xavier_uniform_(...)
  local a = U.parse('xavier_uniform_', {'tensor:Tensor!', 'gain:float'}, {gain = 1.0}, ...)
  local fan_in, fan_out = init._calculate_fan_in_and_fan_out(a.tensor)
  local std = a.gain * math.sqrt(2.0 / (fan_in + fan_out))
  local bound = math.sqrt(3.0) * std
  return no_grad(function() return a.tensor:uniform_(-bound, bound) end)
end

function init.xavier_normal_(...)
  local a = U.parse('xavier_normal_', {'tensor:Tensor!', 'gain:float'}, {gain = 1.0}, ...)
  local fan_in, fan_out = init._calculate_fan_in_and_fan_out(a.tensor)
  local std = a.gain * math.sqrt(2.0 / (fan_in + fan_out))
  return no_grad(function() return a.tensor:normal_(0, std) end)
end

local kaiming_args = {'tensor:Tensor!', 'a:float', 'mode:str', 'nonlinearity:str'}
local kaiming_defaults = {a = 0, mode = 'fan_in', nonlinearity = 'leaky_relu'}

-- nn.Linear uses kaiming_uniform_(w, a=sqrt(5)): bound = 1/sqrt(fan_in).
function init.kaiming_uniform_(...)
  local a = U.parse('kaiming_uniform_', kaiming_args, kaiming_defaults, ...)
  if a.tensor:numel() == 0 then return a.tensor end
  local std = init.calculate_gain(a.nonlinearity, a.a) / math.sqrt(correct_fan(a.tensor, a.mode))
  local bound = math.sqrt(3.0) * std
  return no_grad(function() return a.tensor:uniform_(-bound, bound) end)
end

function init.kaiming_normal_(...)
  local a = U.parse('kaiming_normal_', kaiming_args, kaiming_defaults, ...)
  if a.tensor:numel() == 0 then return a.tensor end
  local std = init.calculate_gain(a.nonlinearity, a.a) / math.sqrt(correct_fan(a.tensor, a.mode))
  return no_grad(function() return a.tensor:normal_(0, std) end)
end

function init.eye_(...)
  local t = U.parse('eye_', {'tensor:Tensor!'}, nil, ...).tensor
  if t:dim() ~= 2 then error('ValueError: Only tensors with 2 dimensions are supported', 0) end
  return no_grad(function() return t:copy_(torch.eye(t:size(0), t:size(1))) end)
end

local function erf(x) return torch.tensor(x, {dtype = torch.float64}):erf():item() end  -- libm's erf, as math.erf
local function norm_cdf(x) return (1.0 + erf(x / math.sqrt(2.0))) / 2.0 end

-- PyTorch 2.15's trunc_normal_ samples by rejection, no longer by the inverse
-- CDF (uniform_, erfinv_, mul_, add_, clamp_): when [a, b] holds more than 30%
-- of the mass it redraws N(mean, std) where a value fell outside; otherwise it
-- draws U(a, b) and accepts with probability pdf / peak. The same ops in the
-- same order give PyTorch's values after the same seed.
local function trunc_by_redraw(t, mean, std, a, b)
  local lo = torch.tensor(a, {dtype = t.dtype}):item()  -- bounds in the tensor's dtype
  local hi = torch.tensor(b, {dtype = t.dtype}):item()
  local result = t:normal_(mean, std)
  while true do
    local mask = result:lt(lo):logical_or(result:gt(hi))
    if not mask:any():item() then break end
    result = torch.where(mask, torch.empty_like(result):normal_(mean, std), result)
  end
  if result ~= t then t:copy_(result) end
end

local function trunc_by_acceptance(t, mean, std, a, b)
  local mode = math.max(a, math.min(mean, b))
  local log_peak = -0.5 * ((mode - mean) / std) ^ 2
  local candidates, accept_buf = torch.empty_like(t), torch.empty_like(t)
  local function log_pdf_minus_peak(c) return c:sub_(mean):div_(std):pow_(2):mul_(-0.5):sub_(log_peak) end
  t:uniform_(a, b)  -- the first draws go straight into t
  candidates:copy_(t)
  log_pdf_minus_peak(candidates)
  local pending = accept_buf:uniform_():log_():gt(candidates)
  if not pending:any():item() then return end
  local result = t
  -- PyTorch's loop has no end: with the mean far from [a, b] (trunc_normal_(w, 2^31)
  -- in the fuzzer) nothing is ever accepted. The bound is far past any draw that
  -- can succeed (1 - 1/4000)^100000 ~ e^-25 for a mean 1000 std away.
  for _ = 1, 100000 do
    candidates:uniform_(a, b)
    result = torch.where(pending, candidates, result)
    log_pdf_minus_peak(candidates)
    pending = torch.where(pending, accept_buf:uniform_():log_():gt(candidates), pending)
    if not pending:any():item() then
      t:copy_(result)
      return
    end
  end
  error(('RuntimeError: trunc_normal_: no value was accepted for some elements after 100000 rounds: the mean %s '
         .. 'is %.3g std from [a, b] = [%s, %s] (PyTorch would keep drawing forever); choose a mean within a few '
         .. 'std of [a, b]'):format(U.pyfloat(mean), math.min(math.abs(mean - a), math.abs(mean - b)) / std,
         U.pyfloat(a), U.pyfloat(b)), 0)
end

function init.trunc_normal_(...)
  local o = U.parse('trunc_normal_', {'tensor:Tensor!', 'mean:float', 'std:float', 'a:float', 'b:float'}, {mean = 0.0, std = 1.0, a = -2.0, b = 2.0}, ...)
  local t, mean, std, a, b = o.tensor, o.mean, o.std, o.a, o.b
  if mean < a - 2 * std or mean > b + 2 * std then
    io.stderr:write('UserWarning: mean is more than 2 std from [a, b] in nn.init.trunc_normal_. '
                    .. 'The distribution of values may be incorrect.\n')
  end
  return no_grad(function()
    if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3 then trunc_by_redraw(t, mean, std, a, b)
    else trunc_by_acceptance(t, mean, std, a, b) end
    return t
  end)
end

-- Saxe et al.'s (semi-)orthogonal init, as PyTorch: QR of a normal matrix
-- (transposed to be tall), Q's columns signed by R's diagonal so that Q is
-- uniform over orthogonal matrices, trailing dims flattened.
function init.orthogonal_(...)
  local o = U.parse('orthogonal_', {'tensor:Tensor!', 'gain:float'}, {gain = 1}, ...)
  local t = o.tensor
  if t:dim() < 2 then error('ValueError: Only tensors with 2 or more dimensions are supported', 0) end
  if t:numel() == 0 then return t end
  return no_grad(function()
    local rows = t:size(0)
    local cols = t:numel() // rows
    local flattened = t:new_empty(rows, cols):normal_(0, 1)
    if rows < cols then flattened = flattened:t() end
    local q, r = torch.linalg.qr(flattened)
    local n = r:size(0)  -- r is square: flattened is tall
    local d = r:reshape(-1)['::' .. (n + 1)]  -- the diagonal of r
    q = q * d:sign()
    if rows < cols then q = q:t() end
    t:view_as(q):copy_(q)
    t:mul_(o.gain)
    return t
  end)
end
