-- torch.accelerator (PyTorch 2.6 on): the device-generic API that PyTorch's
-- own quickstart opens with,
--   device = torch.accelerator.current_accelerator().type
--            if torch.accelerator.is_available() else "cpu"
-- gpulab's one accelerator is CUDA (real GPUs, or virtual devices), so each
-- function here is its torch.cuda counterpart, with the accelerator module's
-- argument rules: a device given as an int, a string or a torch.device whose
-- type must be cuda; memory figures of an allocator not yet started are 0.
local U = torch._util
local cuda = torch.cuda
local accelerator = {}
torch.accelerator = accelerator

-- PyTorch's _get_device_index: an int as it is, a device's index, or (when
-- optional) the current device for none or an index-less device.
local function device_index(fname, device, optional)
  if math.type(device) == 'integer' then return device end
  if device == nil and optional then return cuda.current_device() end
  if type(device) == 'string' or U.kind(device) == 'torch.device' then
    local d = torch.device(device)
    if d.type ~= 'cuda' then error(("ValueError: %s doesn't match the current accelerator cuda."):format(d.type), 0) end
    if d.index ~= nil then return d.index end
    if optional then return cuda.current_device() end
  end
  if device == nil or type(device) == 'string' or U.kind(device) == 'torch.device' then
    error(('ValueError: Expected a torch.device with a specified index or an integer, but got:%s'):format(
      device == nil and 'None' or tostring(torch.device(device))), 0)
  end
  U.type_error(fname, 'device', 'torch.device, str or int', device)
end

local function no_args(fname, ...)
  if select('#', ...) > 0 then
    error(('TypeError: %s() takes 0 positional arguments but %d %s given'):format(fname, select('#', ...),
      select('#', ...) == 1 and 'was' or 'were'), 0)
  end
end

function accelerator.is_available(...)
  no_args('is_available', ...)
  return cuda.is_available()
end

function accelerator.device_count(...)
  no_args('device_count', ...)
  return cuda.device_count()
end

-- The device type, without an index (torch.device('cuda')); nil when
-- check_available is true and no device is there.
function accelerator.current_accelerator(...)
  local a = U.parse('current_accelerator', {'check_available'}, {check_available = false}, ...)
  if a.check_available and not cuda.is_available() then return nil end
  return torch.device('cuda')
end

function accelerator.current_device_index(...)
  no_args('current_device_index', ...)
  return cuda.current_device()
end

function accelerator.set_device_index(device, ...)
  no_args('set_device_index', ...)
  local i = device_index('set_device_index', device, false)
  if i >= 0 then cuda.set_device(i) end  -- a negative index is a no-op, as PyTorch's
end

function accelerator.synchronize(device, ...)
  no_args('synchronize', ...)
  cuda.synchronize(device_index('synchronize', device, true))
end

-- torch.accelerator.device_index(i): the current device is i until the guard
-- closes (`local _ <close> = torch.accelerator.device_index(1)`), or while
-- fn runs (`torch.accelerator.device_index(1, fn)`); nil switches nothing.
-- The current device is idx (nil or negative: unchanged) while fn(...) runs,
-- or, without fn, until the returned guard (a `mt` object) closes; the
-- previous device comes back however it ends. Shared by
-- accelerator.device_index and torch.cuda.device.
local function device_scope(mt, fields, idx, fn, ...)
  local g = setmetatable(fields, mt)
  if idx ~= nil and idx >= 0 then
    g.previous = cuda.current_device()
    cuda.set_device(idx)
  end
  if fn == nil then return g end
  local _ <close> = g
  return fn(...)
end
local function close_scope(g)
  if g.previous ~= nil then cuda.set_device(g.previous) end
  g.previous = nil
end

local Guard = {__name = 'torch.accelerator.device_index', __close = close_scope}
Guard.__index = Guard
function accelerator.device_index(device, fn, ...)
  if device ~= nil and math.type(device) ~= 'integer' then U.type_error('device_index', 'device', 'int', device) end
  U.check_callable('device_index', fn)
  return device_scope(Guard, {}, device, fn, ...)
end

-- Memory: torch.cuda's figures; before CUDA starts (or with no device) the
-- allocator is not initialised and PyTorch answers 0 and an empty dict.
local function started() return cuda.is_initialized() and cuda.is_available() end

function accelerator.memory_stats(device, ...)
  no_args('memory_stats', ...)
  if not started() then return U.OrderedDict() end
  return cuda.memory_stats(device_index('memory_stats', device, true))
end
for _, name in ipairs({'memory_allocated', 'max_memory_allocated', 'memory_reserved', 'max_memory_reserved'}) do
  accelerator[name] = function(device, ...)
    no_args(name, ...)
    if not started() then return 0 end
    return cuda[name](device_index(name, device, true))
  end
end
for _, name in ipairs({'reset_peak_memory_stats', 'reset_accumulated_memory_stats'}) do
  accelerator[name] = function(device, ...)
    no_args(name, ...)
    if started() then cuda[name](device_index(name, device, true)) end
  end
end
function accelerator.empty_cache(...)
  no_args('empty_cache', ...)
  if started() then cuda.empty_cache() end
end
function accelerator.get_memory_info(device, ...)
  no_args('get_memory_info', ...)
  return cuda.mem_get_info(device_index('get_memory_info', device, true))
end

local docs = {
  is_available = 'torch.accelerator.is_available() -> bool: whether a CUDA device (real or virtual) is there',
  device_count = 'torch.accelerator.device_count() -> int: the CUDA devices (torch.cuda.device_count())',
  current_accelerator = "torch.accelerator.current_accelerator(check_available=false) -> torch.device('cuda'), or nil\n"
    .. '  when check_available is true and no device is there. Its .type is what `device =` wants',
  current_device_index = 'torch.accelerator.current_device_index() -> int: the current CUDA device',
  set_device_index = 'torch.accelerator.set_device_index(device): make device (int, str, torch.device) the current one',
  synchronize = 'torch.accelerator.synchronize(device=nil): wait for the work queued on the device',
  device_index = 'torch.accelerator.device_index(i, fn=nil): the current device is i while fn runs, or until the\n'
    .. '  returned guard closes: local _ <close> = torch.accelerator.device_index(1)',
  memory_stats = "torch.accelerator.memory_stats(device=nil): torch.cuda.memory_stats's dict ({} before CUDA starts)",
  memory_allocated = 'torch.accelerator.memory_allocated(device=nil) -> int: bytes held by tensors (0 before CUDA starts)',
  max_memory_allocated = 'torch.accelerator.max_memory_allocated(device=nil) -> int: the peak of memory_allocated',
  memory_reserved = "torch.accelerator.memory_reserved(device=nil) -> int: bytes the caching allocator holds",
  max_memory_reserved = 'torch.accelerator.max_memory_reserved(device=nil) -> int: the peak of memory_reserved',
  reset_peak_memory_stats = 'torch.accelerator.reset_peak_memory_stats(device=nil): peaks start again from now',
  reset_accumulated_memory_stats = 'torch.accelerator.reset_accumulated_memory_stats(device=nil): counts start at 0',
  empty_cache = 'torch.accelerator.empty_cache(): give the cached, unused device memory back',
  get_memory_info = 'torch.accelerator.get_memory_info(device=nil) -> free, total: bytes on the device',
}
for name, text in pairs(docs) do torch._set_doc(accelerator[name], text) end

-- ---- torch.cuda.device and is_bf16_supported ------------------------------------
-- torch.cuda.device(d): PyTorch's context manager, as accelerator.device_index:
-- torch.cuda.device(1, fn, ...) runs fn with cuda:1 current, and
-- `local _ <close> = torch.cuda.device(1)` until the block ends. d: an int,
-- 'cuda:1' or a torch.device; its .idx is the index.
local CudaDevice = {__name = 'torch.cuda.device', __close = close_scope}
CudaDevice.__index = CudaDevice
CudaDevice.__tostring = function(g) return ('<torch.cuda.device object at %p>'):format(g) end
function cuda.device(d, fn, ...)
  if U.is_plain_table(d) then d = U.parse('device', {'device'}, nil, d).device end  -- device{device=1}
  local idx
  if math.type(d) == 'integer' then idx = d
  elseif d == nil then idx = -1
  elseif type(d) == 'string' or U.kind(d) == 'torch.device' then idx = torch.device(d).index or cuda.current_device()
  else U.type_error('device', 'device', 'torch.device, str or int', d) end
  U.check_callable('device', fn)
  return device_scope(CudaDevice, {idx = idx}, idx, fn, ...)
end

-- Whether bfloat16 works on the current device: a GPU of compute capability
-- 8.0 on, or gpulab's virtual devices (which run it); false without a device.
function cuda.is_bf16_supported(...)
  U.parse('is_bf16_supported', {'including_emulation:bool'}, {including_emulation = true}, ...)
  if not cuda.is_available() then return false end
  local i = cuda.current_device()
  if cuda.is_virtual(i) then return true end
  local cap = cuda.get_device_capability(i)
  return (cap[1] or cap.major or 0) >= 8
end
