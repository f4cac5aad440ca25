-- torch.autocast (torch.amp.autocast): automatic mixed precision, PyTorch's
-- context manager in gpulab's two forms of `with`:
--   local _ <close> = torch.autocast('cuda')            -- until the block ends
--   torch.autocast('cuda', {dtype=torch.bfloat16}, fn, ...)  -- fn(...) inside
-- Inside, the ops of tensor/autocast/autocast_rows.def cast their inputs as
-- PyTorch 2.15's do (Note [Autocast]); the switches are C functions
-- (bindings/autocast_lib.cpp), entered and left in C so that an interrupt
-- cannot fall between switching and the guard (Note [Guard window]).
-- The deprecated spellings torch.cuda.amp.autocast and torch.cpu.amp.autocast
-- warn as PyTorch's do.
local U = torch._util
local amp = torch.amp or {}
torch.amp = amp

local Autocast = {__name = 'torch.autocast', __scope = 'torch.autocast'}  -- Note [Guards left on the prompt]
Autocast.__index = Autocast
Autocast.__close = function(self) getmetatable(self.guard).__close(self.guard) end
Autocast.__tostring = function(self) return ('<torch.amp.autocast_mode.autocast object at %p>'):format(self) end

-- PyTorch's autocast.__init__: the checks, warnings and defaults, in its order.
local function settings(fname, device_type, dtype, enabled, cache_enabled)
  if type(device_type) ~= 'string' then
    error(("ValueError: Expected `device_type` of type `str`, got: `<class '%s'>`"):format(U.type_name(device_type)), 0)
  end
  torch.device(device_type)  -- a malformed string gets torch.device's message
  if device_type ~= 'cpu' and device_type ~= 'cuda' then
    error(("RuntimeError: User specified an unsupported autocast device_type '%s'"):format(device_type), 0)
  end
  if dtype == nil then dtype = torch.get_autocast_dtype(device_type) end
  if cache_enabled == nil then cache_enabled = torch.is_autocast_cache_enabled() end
  if enabled == nil then enabled = true end
  U.check(fname, 'enabled', 'bool', enabled)
  U.check(fname, 'cache_enabled', 'bool', cache_enabled)
  if enabled and device_type == 'cuda' then
    if not torch.cuda.is_available() then
      torch._warn('CUDA is not available or torch_xla is imported. Disabling autocast.', 3)
      enabled = false
    elseif dtype == torch.bfloat16 and not torch.cuda.is_bf16_supported() then
      error('RuntimeError: Current CUDA Device does not support bfloat16. Please switch dtype to float16.', 0)
    end
  elseif enabled and dtype ~= torch.bfloat16 and dtype ~= torch.float16 then
    torch._warn('In CPU autocast, but the target dtype is not supported. Disabling autocast.\n'
      .. 'CPU Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.', 3)
    enabled = false
  end
  if U.kind(dtype) ~= 'torch.dtype' then U.type_error(fname, 'dtype', 'torch.dtype', dtype) end
  return device_type, dtype, enabled, cache_enabled
end

-- The arguments before the first function are autocast's; the function and
-- what follows it are the call to run inside.
local function split_call(...)
  local n = select('#', ...)
  for i = 1, n do
    local v = select(i, ...)
    if type(v) == 'function' or (type(v) == 'table' and (getmetatable(v) or {}).__call) then return i end
  end
  return n + 1
end

local function leave(region, ok, ...)
  getmetatable(region.guard).__close(region.guard)
  if not ok then error((...), 0) end
  return ...
end

local function enter(fname, device_type, dtype, enabled, cache_enabled)
  device_type, dtype, enabled, cache_enabled = settings(fname, device_type, dtype, enabled, cache_enabled)
  local region = setmetatable({device = device_type, fast_dtype = dtype, _enabled = enabled,
                               _cache_enabled = cache_enabled}, Autocast)
  region.guard = torch._autocast_guard(device_type, enabled, dtype, cache_enabled)
  return region
end

local NAMES = {'device_type!', 'dtype', 'enabled', 'cache_enabled'}
-- fixed_device: the device type of torch.cuda.amp's and torch.cpu.amp's
-- spellings, which take none; defaults: theirs for dtype and cache_enabled.
local function autocast(fname, names, defaults, fixed_device, ...)
  local at = split_call(...)
  local a = U.parse(fname, names, defaults, table.unpack({...}, 1, at - 1))
  local region = enter(fname, fixed_device or a.device_type, a.dtype, a.enabled, a.cache_enabled)
  if at > select('#', ...) then return region end
  return leave(region, pcall(select(at, ...)))
end

function torch.autocast(...) return autocast('autocast', NAMES, nil, nil, ...) end
amp.autocast = torch.autocast

-- torch.cuda.amp.autocast(enabled=True, dtype=torch.float16, cache_enabled=True) and the CPU's: deprecated.
local function deprecated(device, dflt)
  local names, defaults = {'enabled', 'dtype', 'cache_enabled'}, {dtype = dflt, cache_enabled = true}
  return function(...)
    torch._warn(("`torch.%s.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('%s', args...)` "
      .. 'instead.'):format(device, device), 1, 'FutureWarning')
    return autocast('autocast', names, defaults, device, ...)
  end
end
torch.cuda.amp = torch.cuda.amp or {}
torch.cuda.amp.autocast = deprecated('cuda', torch.float16)
torch.cpu = torch.cpu or {}
torch.cpu.amp = torch.cpu.amp or {}
torch.cpu.amp.autocast = deprecated('cpu', torch.bfloat16)

