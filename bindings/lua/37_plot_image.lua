-- torch.utils.image(t, {scale=1}): a tensor shown as a picture, as torchvision's
-- to_pil_image reads it: (H, W) or (C, H, W) with C = 1 (grey) or 3 (RGB),
-- floats in [0, 1] (what ToTensor gives) or uint8 in 0..255. Each pixel becomes a
-- scale x scale square. A notebook shows it as image/png (display(img), or the
-- value of a cell); img:save('x.png') writes it; the terminal REPL echoes
-- <Image mode=L size=28x28>.
local U = torch._util
local P = torch.utils.plot

local Image = U.class('Image', nil, function(cls)
  return {
    __index = cls, __name = 'Image',
    __tostring = function(self)
      return ('<Image mode=%s size=%dx%d>'):format(self.channels == 1 and 'L' or 'RGB', self.w, self.h)
    end,
    __mimebundle = function(self) return {['text/plain'] = tostring(self), ['image/png'] = self:png()} end,
  }
end)
P.Image = Image

function Image.new(cls, t, opts)
  opts = opts or {}
  if not U.is_tensor(t) then U.type_error('image', 'pic', 'Tensor', t) end
  local d = t:dim()
  if d ~= 2 and d ~= 3 then
    error(('ValueError: pic should be 2/3 dimensional. Got %d dimensions.'):format(d), 3)
  end
  local c = d == 2 and 1 or t:size(0)
  if c > 4 then error(('ValueError: pic should not have > 4 channels. Got %d channels.'):format(c), 3) end
  if c ~= 1 and c ~= 3 then
    error(('ValueError: torch.utils.image shows 1 (grey) or 3 (RGB) channels, got %d'):format(c), 3)
  end
  local scale = opts.scale or 1
  if math.type(scale) ~= 'integer' or scale < 1 then U.type_error('image', 'scale', 'a positive int', scale) end
  local h, w = t:size(d - 2), t:size(d - 1)
  local x = t:detach():cpu()
  x = x.dtype == torch.uint8 and x:double() / 255 or x:double()
  if d == 3 then x = x:permute(1, 2, 0) end  -- CHW -> HWC, the renderer's order
  return setmetatable({h = h, w = w, channels = c, scale = scale,
                       data = x:contiguous():reshape(-1):tolist()}, cls.__meta)
end

function Image:_spec()
  return {h = self.h, w = self.w, channels = self.channels, data = self.data, cmap = 'gray', vmin = 0, vmax = 1}
end
function Image:png() return torch._image_png(self:_spec(), self.scale) end
function Image:save(path)
  if type(path) ~= 'string' then U.type_error('save', 'fp', 'str', path) end
  local f, err = io.open(path, 'wb')
  if not f then error('OSError: ' .. tostring(err), 2) end
  f:write(self:png())
  f:close()
end
-- In the terminal, show() writes image-N.png beside the figures (37_plot_terminal.lua).
local images = 0
function Image:show()
  if P._in_notebook() then return display(self) end
  images = images + 1
  local dir = P.figure_dir or os.getenv('GPULAB_FIGURES')
  local path = ((dir and dir ~= '') and (dir:gsub('/+$', '') .. '/') or '') .. ('image-%d.png'):format(images)
  self:save(path)
  print(('%s saved to %s'):format(tostring(self), path))
end

torch.utils.image = function(t, opts) return Image(t, opts) end
