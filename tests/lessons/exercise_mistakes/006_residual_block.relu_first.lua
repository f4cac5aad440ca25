-- expect: add first, then the relu
-- exercise: 006_residual_block
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
  if self.conv3 then X = self.conv3(X) end
  return nn.functional.relu(Y) + X
end
