-- exercise: 006_residual_block
-- A residual block's forward, with its shortcut, on the GPU (lesson e6)
-- Residual(num_channels, use_1x1conv, strides) is d2l's ResNet block: two
-- 3x3 convolutions, each followed by batch norm, and the block's input
-- added back before the last relu:
--   forward(X) = relu(bn2(conv2(relu(bn1(conv1(X))))) + X)
-- Where the block changes the channel count or halves the resolution
-- (strides 2), X no longer has the shape of what it is added to:
-- use_1x1conv makes conv3, a 1x1 convolution with the block's stride, and
-- the block adds conv3(X) instead of X.
-- __init is written. Write forward; it must run on X's device, with tensor
-- ops only.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 1)

Residual = nn.Module:extend('Residual')
function Residual:__init(num_channels, use_1x1conv, strides)
  nn.Module.__init(self)
  strides = strides or 1
  self.conv1 = nn.LazyConv2d(num_channels, 3, {padding = 1, stride = strides})
  self.conv2 = nn.LazyConv2d(num_channels, 3, {padding = 1})
  self.conv3 = use_1x1conv and nn.LazyConv2d(num_channels, 1, {stride = strides}) or nil
  self.bn1 = nn.LazyBatchNorm2d()
  self.bn2 = nn.LazyBatchNorm2d()
end

function Residual:forward(X)
  local Y = nn.functional.relu(self.bn1(self.conv1(X)))
  Y = self.bn2(self.conv2(Y))
  -- TODO: the shortcut
  return nn.functional.relu(Y)
end

device = try_gpu()
X = torch.randn(4, 3, 6, 6, {device = device})
print(Residual(3):to(device)(X).shape)
print(Residual(6, true, 2):to(device)(X).shape)
