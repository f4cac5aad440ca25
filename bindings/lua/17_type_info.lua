-- torch.finfo and torch.iinfo: the limits of the floating and integer dtypes,
-- with PyTorch's fields, errors and repr (C's %g of each number). One object
-- per dtype, so == compares them as Python's == does.
local U = torch._util

-- bits, eps, max, tiny (= smallest_normal), resolution (10^-digits)
local FLOATS = {
  float32 = {32, 2 ^ -23, (2 - 2 ^ -23) * 2 ^ 127, 2 ^ -126, 1e-06},
  float64 = {64, 2 ^ -52, (2 - 2 ^ -52) * 2 ^ 1023, 2 ^ -1022, 1e-15},
  float16 = {16, 2 ^ -10, 65504.0, 2 ^ -14, 0.001},
  bfloat16 = {16, 2 ^ -7, (2 - 2 ^ -7) * 2 ^ 127, 2 ^ -126, 0.01},
}
-- bits, min, max
local INTS = {
  int64 = {64, math.mininteger, math.maxinteger}, int32 = {32, -2147483648, 2147483647},
  int16 = {16, -32768, 32767}, int8 = {8, -128, 127}, uint8 = {8, 0, 255},
}

-- A class as Python shows one (<class 'torch.finfo'>); its objects' fields are read-only.
local function info_class(name, fields, text, make)
  local full = 'torch.' .. name
  local meta = {__name = full}
  meta.__index = function(_, k)
    error(("AttributeError: '%s' object has no attribute '%s'"):format(full, tostring(k)), 0)
  end
  meta.__newindex = function(_, k)
    error(("AttributeError: attribute '%s' of '%s' objects is not writable"):format(tostring(k), full), 0)
  end
  meta.__tostring = function(self)
    local parts = {}
    for i, f in ipairs(fields) do
      local v = rawget(self, f)
      parts[i] = f .. '=' .. (type(v) == 'number' and ('%g'):format(v) or v)
    end
    return name .. '(' .. table.concat(parts, ', ') .. ')'
  end
  local cache = {}
  local cls = setmetatable({}, {
    __name = full, __doc = text,
    __tostring = function() return "<class '" .. full .. "'>" end,
    __call = function(_, ...)
      local dt = U.parse(name, {'type'}, nil, ...).type
      if dt == nil and name == 'finfo' then dt = torch.get_default_dtype() end
      if dt == nil then error(('TypeError: %s() missing 1 required positional arguments: "type"'):format(name), 0) end
      if U.kind(dt) ~= 'torch.dtype' then
        error(("TypeError: %s(): argument 'type' (position 1) must be torch.dtype, not %s"):format(name, U.type_name(dt)), 0)
      end
      local short = tostring(dt):match('^torch%.(.*)$')
      if cache[short] == nil then cache[short] = setmetatable(make(dt, short), meta) end
      return cache[short]
    end,
  })
  return cls
end

torch.finfo = info_class('finfo', {'resolution', 'min', 'max', 'eps', 'smallest_normal', 'tiny', 'dtype'},
  'torch.finfo(type=torch.get_default_dtype()): the limits of a floating dtype: bits, eps (the gap above 1), max, min, '
  .. 'tiny and smallest_normal (the smallest positive normal number), resolution (10^-digits), dtype (its name)',
  function(dt, short)
    local f = FLOATS[short]
    if f == nil then
      error("TypeError: torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'", 0)
    end
    return {bits = f[1], eps = f[2], max = f[3], min = -f[3], tiny = f[4], smallest_normal = f[4], resolution = f[5],
            dtype = short}
  end)

torch.iinfo = info_class('iinfo', {'min', 'max', 'dtype'},
  'torch.iinfo(type): the limits of an integer dtype: bits, min, max, dtype (its name)',
  function(dt, short)
    if short == 'bool' then error('TypeError: torch.bool is not supported by torch.iinfo', 0) end
    local i = INTS[short]
    if i == nil then
      error("TypeError: torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'", 0)
    end
    return {bits = i[1], min = i[2], max = i[3], dtype = short}
  end)
