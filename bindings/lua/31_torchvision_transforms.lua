-- torchvision.transforms: ToTensor, Resize, Normalize and Compose, printed as
-- torchvision prints them. gpulab has no PIL: an image is a uint8 tensor, (H, W)
-- for grey ones as in Fashion-MNIST or (H, W, C), which is what ToTensor turns
-- into a float (C, H, W) tensor in [0, 1]. Resize and Normalize work on tensors
-- as torchvision's do.
--
-- Each transform also has batch(x), the same transform of a stack of images
-- (a leading batch dim): the DataLoader uses it to transform a whole batch
-- with a few ops instead of one per image (bindings/lua/32_torchvision_datasets.lua).
local U = torch._util
torchvision = torchvision or {}
torchvision.transforms = torchvision.transforms or {}
local T = torchvision.transforms

local function transform_meta(cls)
  return {
    __name = cls.__name,
    __index = cls,
    __call = function(self, x) return self:forward(x) end,
    __tostring = function(self) return self:__repr() end,
  }
end
local Transform = U.class('Transform', nil, transform_meta)
function Transform.new(cls, ...)
  local self = setmetatable({}, cls.__meta)
  self:__init(...)
  return self
end
-- Python's repr of a size or a list of numbers given from Lua.
local function pyrepr(v)
  if math.type(v) == 'integer' then return tostring(v) end
  return U.repr(v)
end
local function need_tensor(fname, x)
  if not U.is_tensor(x) then
    error(('TypeError: %s: img should be a Tensor (gpulab\'s stand-in for a PIL Image). Got %s'):format(fname, U.type_name(x)), 0)
  end
end

-- ---- ToTensor ----------------------------------------------------------------
local ToTensor = Transform:extend('ToTensor')
T.ToTensor = ToTensor
U.doc(ToTensor, 'ToTensor(): an image, a uint8 (H, W) or (H, W, C) tensor, to a float (C, H, W) tensor (the default dtype)\n'
  .. 'in [0, 1] (divided by 255). Other dtypes keep their values and dtype, as torchvision does for arrays.')
function ToTensor:__init(...) U.parse('ToTensor', {}, nil, ...) end
function ToTensor:__repr() return 'ToTensor()' end
local function to_tensor(x, batch)
  local d = x:dim() - (batch and 1 or 0)
  if d == 2 then
    x = x:unsqueeze(batch and 1 or 0)
  elseif d == 3 then
    x = batch and x:permute(0, 3, 1, 2) or x:permute(2, 0, 1)
  else
    error(('ValueError: pic should be 2/3 dimensional. Got %d dimensions.'):format(d), 0)
  end
  x = x:contiguous()
  if x.dtype == torch.uint8 then return x:to(torch.get_default_dtype()):div(255) end
  return x
end
function ToTensor:forward(pic)
  need_tensor('ToTensor', pic)
  return to_tensor(pic, false)
end
function ToTensor:batch(pics) return to_tensor(pics, true) end

-- ---- Normalize ---------------------------------------------------------------
local Normalize = Transform:extend('Normalize')
T.Normalize = Normalize
U.doc(Normalize, 'Normalize(mean, std, inplace=false): (x - mean[c]) / std[c] for each channel c of a float\n'
  .. '(..., C, H, W) tensor; mean and std are lists (one number per channel) or numbers.')
function Normalize:__init(...)
  local a = U.parse('Normalize', {'mean!', 'std!', 'inplace'}, {inplace = false}, ...)
  for _, k in ipairs({'mean', 'std'}) do
    local v = a[k]
    local ok = type(v) == 'number' or U.is_plain_table(v) and #v > 0
    if ok and type(v) == 'table' then
      for _, e in ipairs(v) do ok = ok and type(e) == 'number' end
    end
    if not ok then U.type_error('Normalize', k, 'a sequence of floats', v) end
  end
  U.check('Normalize', 'inplace', 'bool', a.inplace)
  self.mean, self.std, self.inplace = a.mean, a.std, a.inplace
end
function Normalize:__repr()
  return ('Normalize(mean=%s, std=%s)'):format(pyrepr(self.mean), pyrepr(self.std))
end
-- The channel values as a (C, 1, 1) tensor like x (a number is one for every channel).
local function per_channel(v, x)
  local t = torch.tensor(type(v) == 'table' and v or {v}, {dtype = x.dtype, device = x.device})
  return t:view(-1, 1, 1)
end
function Normalize:forward(x)
  if not U.is_tensor(x) then
    error(('TypeError: img should be Tensor Image. Got %s'):format(U.type_name(x)), 0)
  end
  if not x:is_floating_point() then
    error(('TypeError: Input tensor should be a float tensor. Got %s.'):format(tostring(x.dtype)), 0)
  end
  if x:dim() < 3 then
    error(('ValueError: Expected tensor to be a tensor image of size (..., C, H, W). Got tensor.size() = %s'):format(
      tostring(x:size())), 0)
  end
  local mean, std = per_channel(self.mean, x), per_channel(self.std, x)
  if std:eq(0):any():item() then
    error(('ValueError: std evaluated to zero after conversion to %s, leading to division by zero.'):format(
      tostring(x.dtype)), 0)
  end
  if self.inplace then return x:sub_(mean):div_(std) end
  return (x - mean) / std
end
Normalize.batch = Normalize.forward

-- ---- Resize ------------------------------------------------------------------
-- Bilinear with align_corners=False, as torch.nn.functional.interpolate (which
-- torchvision calls on tensors); with antialias (the default) its weights are
-- those of PyTorch's _upsample_bilinear2d_aa, which widen the filter when
-- shrinking so that every input pixel counts. Either way the interpolation is
-- separable: out = Wh @ x @ Ww^T, two matmuls with small weight matrices.
local Resize = Transform:extend('Resize')
T.Resize = Resize
U.doc(Resize, 'Resize(size, interpolation=\'bilinear\', max_size=nil, antialias=true): an image tensor (..., H, W)\n'
  .. 'resized: size {h, w} exactly, or a number: the smaller edge becomes size, keeping the aspect ratio.\n'
  .. 'uint8 images stay uint8 (rounded), float ones float.')
function Resize:__init(...)
  local a = U.parse('Resize', {'size!', 'interpolation', 'max_size', 'antialias'},
                    {interpolation = 'bilinear', antialias = true}, ...)
  local s = a.size
  local ok = math.type(s) == 'integer' or U.is_plain_table(s) and (#s == 1 or #s == 2)
  if ok and type(s) == 'table' then
    for _, e in ipairs(s) do ok = ok and math.type(e) == 'integer' end
  end
  if not ok then error(('TypeError: Size should be int or sequence. Got %s'):format(type(s) == 'string' and 'str' or U.type_name(s)), 0) end
  if type(s) == 'table' and #s == 2 and a.max_size ~= nil then
    error(('ValueError: max_size should only be passed if size specifies the length of the smaller edge, i.e. size should be an int or a sequence of length 1 in torchscript mode.'), 0)
  end
  if a.interpolation ~= 'bilinear' then
    error(("NotImplementedError: gpulab: Resize supports interpolation='bilinear', not %s"):format(U.repr(a.interpolation)), 0)
  end
  U.check('Resize', 'max_size', 'int', a.max_size)
  U.check('Resize', 'antialias', 'bool', a.antialias)
  self.size, self.interpolation, self.max_size, self.antialias = s, a.interpolation, a.max_size, a.antialias
  self.weights = {}
end
function Resize:__repr()
  return ('Resize(size=%s, interpolation=%s, max_size=%s, antialias=%s)'):format(pyrepr(self.size),
    self.interpolation, self.max_size == nil and 'None' or tostring(self.max_size), self.antialias and 'True' or 'False')
end

-- torchvision's _compute_resized_output_size.
local function output_size(h, w, size, max_size)
  if type(size) == 'table' and #size == 2 then return size[1], size[2] end
  local short, long = math.min(h, w), math.max(h, w)
  local new_short = type(size) == 'table' and size[1] or size
  local new_long = math.floor(new_short * long / short)
  if max_size ~= nil then
    if max_size <= new_short then
      error(('ValueError: max_size = %d must be strictly greater than the requested size for the smaller edge size = %d'):format(
        max_size, new_short), 0)
    end
    if new_long > max_size then new_short, new_long = math.floor(max_size * new_short / new_long), max_size end
  end
  if w <= h then return new_long, new_short end
  return new_short, new_long
end

-- The (n_out, n_in) interpolation matrix along one axis, as a float64 CPU tensor.
local function weights(n_in, n_out, antialias)
  local scale = n_in / n_out
  local rows = {}
  for i = 0, n_out - 1 do
    local row = {}
    for j = 1, n_in do row[j] = 0.0 end
    if antialias then
      local support = scale >= 1 and scale or 1.0
      local invscale = scale >= 1 and 1 / scale or 1.0
      local center = scale * (i + 0.5)
      local xmin = math.max(math.tointeger(math.modf(center - support + 0.5)) or 0, 0)
      local xmax = math.min(math.tointeger(math.modf(center + support + 0.5)) or 0, n_in)
      local total = 0.0
      for j = xmin, xmax - 1 do
        local w = math.max(0.0, 1.0 - math.abs((j - center + 0.5) * invscale))
        row[j + 1] = w
        total = total + w
      end
      if total ~= 0 then
        for j = xmin, xmax - 1 do row[j + 1] = row[j + 1] / total end
      end
    else
      local src = math.max(scale * (i + 0.5) - 0.5, 0.0)
      local i0 = math.floor(src)
      local i1 = i0 < n_in - 1 and i0 + 1 or i0
      local l1 = src - i0
      row[i0 + 1] = row[i0 + 1] + (1 - l1)
      row[i1 + 1] = row[i1 + 1] + l1
    end
    rows[i + 1] = row
  end
  return torch.tensor(rows, {dtype = torch.float64})
end

function Resize:resize(x)
  if x:dim() < 2 then
    error(('TypeError: Tensor is not a torch image.'), 0)
  end
  local h, w = x:size(-2), x:size(-1)
  local oh, ow = output_size(h, w, self.size, self.max_size)
  if oh == h and ow == w then return x end
  local key = ('%d,%d,%d,%d,%s,%s'):format(h, w, oh, ow, tostring(x.device), tostring(x.dtype))
  local wts = self.weights[key]
  local compute = x:is_floating_point() and x.dtype or torch.float32
  if wts == nil then
    wts = {weights(h, oh, self.antialias):to(x.device, compute), weights(w, ow, self.antialias):t():to(x.device, compute)}
    self.weights[key] = wts
  end
  local out = wts[1]:matmul(x:to(compute)):matmul(wts[2])
  if not x:is_floating_point() then out = out:round():to(x.dtype) end
  return out
end
function Resize:forward(img)
  need_tensor('Resize', img)
  return self:resize(img)
end
Resize.batch = Resize.resize

-- ---- Compose -----------------------------------------------------------------
local Compose = Transform:extend('Compose')
T.Compose = Compose
U.doc(Compose, 'Compose(transforms): one transform that applies each of a list in turn.')
function Compose:__init(...)
  local a = U.parse('Compose', {'transforms!'}, nil, ...)
  if not U.is_plain_table(a.transforms) then U.type_error('Compose', 'transforms', 'a list of transforms', a.transforms) end
  for i, t in ipairs(a.transforms) do
    if type(t) ~= 'function' and not (getmetatable(t) or {}).__call then
      error(('TypeError: Compose: transform %d is not callable (%s)'):format(i, U.type_name(t)), 0)
    end
  end
  self.transforms = a.transforms
end
function Compose:__repr()
  local lines = {'Compose('}
  for _, t in ipairs(self.transforms) do
    local text = type(t) == 'function' and '<function>' or tostring(t)
    lines[#lines + 1] = '    ' .. text
  end
  lines[#lines + 1] = ')'
  return table.concat(lines, '\n')
end
function Compose:forward(x)
  for _, t in ipairs(self.transforms) do x = t(x) end
  return x
end
-- Only when every step has a batch form (a plain function has none).
function Compose:batch(x)
  for _, t in ipairs(self.transforms) do x = t.batch(t, x) end
  return x
end
function Compose:has_batch()
  for _, t in ipairs(self.transforms) do
    if type(t) ~= 'table' or type(t.batch) ~= 'function' or (t.has_batch and not t:has_batch()) then return false end
  end
  return true
end
