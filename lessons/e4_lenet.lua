-- Dive into Deep Learning (d2l.ai) § 7.6: Convolutional neural networks (LeNet), trained on the GPU
-- needs: 1 gpu
-- %% From pixels in a row to pictures
-- The MLP of the last lesson flattened each 28x28 picture into 784 numbers:
-- it could not know that two pixels are neighbours. A convolution slides a
-- small kernel (here 5x5) over the picture, so the same few weights look for
-- the same pattern everywhere; a pooling layer then halves the resolution.
-- LeNet (LeCun et al., 1998) stacks two of each, then three dense layers.
-- As in the book, its layers are lazy: `LazyConv2d(6, 5)` knows its output
-- channels and kernel size, and learns its input channels from the first
-- batch it sees.
net = nn.Sequential(
  nn.LazyConv2d(6, 5, {padding = 2}), nn.Sigmoid(),
  nn.AvgPool2d(2, 2),
  nn.LazyConv2d(16, 5), nn.Sigmoid(),
  nn.AvgPool2d(2, 2),
  nn.Flatten(),
  nn.LazyLinear(120), nn.Sigmoid(),
  nn.LazyLinear(84), nn.Sigmoid(),
  nn.LazyLinear(10))
print(net)
print(net[0].weight)
-- %% Each layer's output shape
-- d2l's layer_summary: push one picture through the layers one by one. The
-- first call also gives every lazy layer its shape (above, 0 input
-- channels and an <UninitializedParameter>) and turns it into the layer it
-- stands for. The first convolution pads by 2, so 28x28 stays
-- 28x28; the second has no padding, so 14x14 becomes 10x10; each pooling
-- halves the height and width; 16 x 5 x 5 = 400 numbers reach the dense part.
X = torch.rand(1, 1, 28, 28)
for i = 0, #net - 1 do
  local layer = net[i]
  X = layer(X)
  pyprint(layer:_get_name(), 'output shape:\t', X.shape)
end
print(net[0])
-- %% The data and the device
-- The same Fashion-MNIST as before, in batches of 256, and the first GPU if
-- there is one (try_gpu() falls back to the CPU).
batch_size = 256
train_iter, test_iter = d2l.load_data_fashion_mnist(batch_size)
device = try_gpu()
-- %% Training on the GPU
-- d2l.train_ch6 initialises the convolution and dense weights (Xavier),
-- moves the network to `device`, and in each step moves the batch there too:
-- parameters and data must be on the same device. It evaluates the test set
-- on the device as well, reading the counts back once per pass, and prints
-- one line per epoch. The book's hyper-parameters: lr 0.9, 10 epochs (the
-- sigmoids learn slowly at first; the transcript runs a short slice).
lr, num_epochs = 0.9, d2l.quick() and 2 or 10
d2l.train_ch6(net, train_iter, test_iter, num_epochs, lr, device)
-- %% Where the time goes
-- On a GPU the convolutions run on cuDNN, and gpulab loads it on the first
-- convolution, as it loads cuBLAS on the first matmul; on the CPU they run
-- on oneDNN (the library PyTorch's CPU convolutions use). gpulab's trace
-- (the one the exercise checkers use) counts what one training step does,
-- and on which device. The batch is already there, and every convolution
-- and pooling runs on it. The two small copies are the cross-entropy's: the
-- list of class numbers it compares the labels with goes to the device, and
-- one flag comes back, saying whether every label is in range (on this
-- emulated GPU gpulab checks as PyTorch's CPU does; on a real GPU it does
-- not make the host wait: an out-of-range label gives a NaN loss there).
X, y = torch.rand(256, 1, 28, 28):to(device), torch.randint(0, 10, {256}):to(device)
loss = nn.CrossEntropyLoss()
torch._trace.start()
loss(net(X), y):backward()
t = torch._trace.stop()
pyprint('host to device:', t.h2d.calls, 'device to host:', t.d2h.calls, 'waits:', t.nsyncs)
for _, op in ipairs(t.ops) do
  if op.name:find('conv') or op.name:find('pool') then pyprint(op.name, op.device, op.count) end
end
-- %% The full run
-- On the whole data set (60 000 images, 10 epochs, batch 256, lr 0.9), on a
-- 2-core machine without a GPU (cuda:0 emulated on the CPU, 2 threads):
--   gpulab:  epoch 10, loss 0.467, train acc 0.825, test acc 0.808, about
--            27 000 images a second
--   PyTorch 2.15 on the CPU, the same script (bench/lenet.py): epoch 10,
--            loss 0.467, train acc 0.825, test acc 0.808, about 23 000
--            images a second
-- Both start from the same weights and see the same batches, so every
-- epoch's three figures agree. The book prints loss 0.469, train acc 0.823,
-- test acc 0.779 on its GPU. The test accuracy moves by a few points from
-- epoch to epoch while the sigmoids settle (0.750, 0.767, 0.808 over the last
-- three epochs here).
-- bench/lenet.sh runs both side by side. On a real GPU an epoch takes
-- seconds.
