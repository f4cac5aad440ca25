-- Anomaly detection (Note [Anomaly mode], tensor/autograd/anomaly.h), as
-- PyTorch's torch.autograd.anomaly_mode:
--   torch.autograd.set_detect_anomaly(true)          -- on (check_nan=true), until set off
--   torch.autograd.set_detect_anomaly(true, {check_nan=false})
--   torch.autograd.detect_anomaly(fn, ...)            -- Python's `with detect_anomaly():`
--   local _ <close> = torch.autograd.detect_anomaly() -- the same for the rest of a block
-- While it is on, a failing backward first warns where the failing node's
-- forward ran; with check_nan a gradient holding a NaN fails naming its node.
local U = torch._util
local c_set = torch.autograd._set_detect_anomaly
local enabled, check_nan = torch.autograd._is_anomaly_enabled, torch.autograd._is_anomaly_check_nan_enabled

function torch.is_anomaly_enabled(...)
  U.parse('is_anomaly_enabled', {}, nil, ...)
  return enabled()
end
function torch.is_anomaly_check_nan_enabled(...)
  U.parse('is_anomaly_check_nan_enabled', {}, nil, ...)
  return check_nan()
end

function torch.autograd.set_detect_anomaly(...)
  local a = U.parse('set_detect_anomaly', {'mode:bool!', 'check_nan:bool'}, {check_nan = true}, ...)
  c_set(a.mode, a.check_nan)
end

local function restore(prev_on, prev_nan, ok, ...)
  c_set(prev_on, prev_nan)
  if not ok then error((...), 0) end
  return ...
end

local Guard = {__name = 'torch.autograd.detect_anomaly', __scope = 'torch.autograd.detect_anomaly'}  -- Note [Guards left on the prompt]
Guard.__index = Guard
Guard.__tostring = function(g) return ('<torch.autograd.anomaly_mode.detect_anomaly object at %p>'):format(g) end
Guard.__close = function(g) c_set(g.prev_on, g.prev_nan) end

-- detect_anomaly([{check_nan=true},] fn, ...): fn(...) with anomaly detection
-- on, the previous mode back afterwards however fn ends; without fn, a guard.
function torch.autograd.detect_anomaly(...)
  local nan, first = true, 1
  if U.is_plain_table((...)) then
    nan = U.parse('detect_anomaly', {'check_nan:bool'}, {check_nan = true}, (...)).check_nan
    first = 2
  end
  local fn = select(first, ...)
  U.check_callable('detect_anomaly', fn)
  torch._warn('Anomaly Detection has been enabled. This mode will increase the runtime and should only be enabled for '
    .. 'debugging.', 1)
  local prev_on, prev_nan = enabled(), check_nan()
  c_set(true, nan)
  if fn == nil then return setmetatable({prev_on = prev_on, prev_nan = prev_nan}, Guard) end
  return restore(prev_on, prev_nan, pcall(fn, select(first + 1, ...)))
end
