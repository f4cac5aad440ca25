-- Dive into Deep Learning (d2l.ai) § 8.6: Residual networks (ResNet-18), trained on the GPU
-- needs: 1 gpu
-- %% A block that can do nothing
-- Stacking more layers should never make a network worse: the extra ones
-- could learn to pass their input through unchanged. In practice plain deep
-- networks train worse as they grow, because learning "unchanged" through
-- convolutions is hard. He et al. (2016) made it easy: a residual block
-- computes g(x) and returns relu(x + g(x)), so doing nothing is g = 0.
-- d2l's Residual: two 3x3 convolutions, each followed by batch norm (lesson
-- e5); where the block halves the resolution (stride 2) or changes the
-- channel count, a 1x1 convolution reshapes x so that it can be added.
-- A module of our own extends nn.Module (Python's class Residual(nn.Module)),
-- its __init calls nn.Module.__init(self) first, and forward is a method.
-- Exercise 006_residual_block asks for this forward.
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
  return nn.functional.relu(Y + X)
end
X = torch.randn(4, 3, 6, 6)
pyprint('same channels: ', Residual(3)(X).shape)
blk = Residual(6, true, 2)
pyprint('1x1, stride 2: ', blk(X).shape)
print(blk)
-- %% ResNet-18
-- The first stage is GoogLeNet's: a 7x7 convolution of stride 2 and a 3x3
-- max pooling of stride 2, so a 96x96 picture is 24x24 when the residual
-- blocks start. Four stages of two blocks follow; each stage after the
-- first halves the resolution and doubles the channels (64, 128, 256,
-- 512). A global average pooling and one dense layer end it: 18 layers
-- with weights (17 convolutions and the dense one, the 1x1 shortcuts not
-- counted). One 96x96 picture through it, stage by stage; the first call
-- also gives every lazy layer its shape.
function block(num_residuals, num_channels, first_block)
  local blk = {}
  for i = 1, num_residuals do
    if i == 1 and not first_block then
      blk[#blk + 1] = Residual(num_channels, true, 2)
    else
      blk[#blk + 1] = Residual(num_channels)
    end
  end
  return nn.Sequential(table.unpack(blk))
end
net = nn.Sequential(
  nn.Sequential(nn.LazyConv2d(64, 7, {stride = 2, padding = 3}), nn.LazyBatchNorm2d(),
                nn.ReLU(), nn.MaxPool2d(3, {stride = 2, padding = 1})),
  block(2, 64, true), block(2, 128), block(2, 256), block(2, 512),
  nn.Sequential(nn.AdaptiveAvgPool2d({1, 1}), nn.Flatten(), nn.LazyLinear(10)))
X = torch.rand(1, 1, 96, 96)
for i = 0, #net - 1 do
  X = net[i](X)
  pyprint(net[i]:_get_name(), 'output shape:\t', X.shape)
end
n = 0
for _, p in ipairs(net:parameters()) do n = n + p:numel() end
pyprint('parameters:', n)
-- %% Training on the GPU
-- The book trains it on Fashion-MNIST enlarged to 96x96, in batches of 128,
-- with SGD at lr 0.01 for 10 epochs (d2l.train_ch6: Xavier weights, the
-- batch moved to the device at each step). Every block is a few
-- convolutions and batch norms: on a GPU cuDNN runs them all. This is the
-- first network of the course that needs a GPU: on a 2-core CPU one step
-- takes seconds at 96x96. The transcript's quick run keeps the pictures
-- at 28x28 (the network works at any size: its global pooling averages
-- whatever is left, here 1x1) and trains on a slice, where the running
-- statistics still lag and the test accuracy trails (lesson e5).
lr, num_epochs, batch_size = 0.01, d2l.quick() and 2 or 10, 128
train_iter, test_iter = d2l.load_data_fashion_mnist(batch_size, not d2l.quick() and 96 or nil)
device = try_gpu()
d2l.train_ch6(net, train_iter, test_iter, num_epochs, lr, device)
-- %% What one step does, and where
-- gpulab's trace counts one training step's ops by device: 20
-- convolutions (the stem's, 16 in the blocks, 3 shortcuts) and 17 batch
-- norms (the shortcuts have none), forward and backward, all on the GPU.
-- The stem's convolution computes no gradient for the pictures (19
-- backward_data). The one read back to the host is cross-entropy's flag
-- that every label is in range (lesson e4).
X = torch.rand(8, 1, 28, 28, {device = device})
y = torch.randint(0, 10, {8}, {device = device})
torch._trace.start()
nn.functional.cross_entropy(net(X), y):backward()
t = torch._trace.stop()
for _, op in ipairs(t.ops) do
  if op.name:find('conv') or op.name:find('batch_norm') then
    pyprint(op.name, op.device, op.count)
  end
end
pyprint('device to host:', t.d2h.calls)
-- %% The full run
-- The book's run (96x96, 10 epochs) is a GPU's work: one step of 128
-- pictures at 96x96 takes 2.1 to 2.7 s on a 2-core machine without one,
-- so an epoch would take about 20 minutes there. What was measured on that
-- machine (cuda:0 emulated on the CPU) is the whole data set at 28x28, in
-- batches of 128, lr 0.01, 3 epochs, 11 178 378 parameters as in PyTorch:
--   epoch 1, loss 0.499, train acc 0.823, test acc 0.863, 700 examples/sec
--   epoch 2, loss 0.310, train acc 0.885, test acc 0.879, 724 examples/sec
--   epoch 3, loss 0.255, train acc 0.904, test acc 0.883, 690 examples/sec
-- After two epochs ResNet-18 is past where LeNet with batch norm (lesson
-- e5) was after ten on the test set (0.872). On a GPU, `gpulab lesson
-- e6_resnet` runs the book's full run as written.
