-- Dive into Deep Learning (d2l.ai) § 8.5: Batch normalization, LeNet with it, trained on the GPU
-- needs: 1 gpu
-- %% Normalising every batch
-- Deep networks learn slowly when the numbers reaching a layer drift in
-- scale as the layers before it learn. Batch normalization (Ioffe and
-- Szegedy, 2015) re-centres and re-scales them at every step: for each
-- channel it takes the mean and the variance over the whole batch (every
-- picture, every pixel), subtracts the one and divides by the square root
-- of the other. Then it multiplies by a learned scale (gamma, `weight`) and
-- adds a learned shift (beta, `bias`), so the layer can still undo it.
-- Below, d2l's formula by hand on a batch of 8 pictures with 3 channels,
-- then the layer: `nn.BatchNorm2d(3)` starts with gamma 1 and beta 0, so
-- the two agree.
torch.manual_seed(0)
X = torch.randn(8, 3, 4, 4) * 2 + 1
mean = X:mean({0, 2, 3}, true)
var = ((X - mean) ^ 2):mean({0, 2, 3}, true)
X_hat = (X - mean) / (var + 1e-5):sqrt()
pyprint('per channel, mean:    ', X_hat:mean({0, 2, 3}))
pyprint('per channel, variance:', X_hat:var({0, 2, 3}, {correction = 0}))
bn = nn.BatchNorm2d(3)
print(bn)
pyprint('largest difference from nn.BatchNorm2d:', (bn(X) - X_hat):abs():max():item())
-- %% The running statistics, and what PyTorch calls momentum
-- A trained network must answer for one picture alone, where there is no
-- batch to average over. So in training the layer also keeps a running
-- mean and variance, moved a little towards each batch's. PyTorch's
-- `momentum=0.1` is the weight of the NEW batch: running = 0.9 * running +
-- 0.1 * batch. d2l's from-scratch code writes momentum * running +
-- (1 - momentum) * batch with momentum 0.9: the same arithmetic, the
-- opposite name. And the running variance takes the unbiased variance
-- (divided by n - 1, here n = 8 * 4 * 4 = 128 values per channel), while
-- the batch itself was normalised by the biased one (divided by n).
-- Exercise 005_batch_norm_stats asks for this layer by hand, running
-- statistics and evaluation mode included.
n = 8 * 4 * 4
pyprint('running_mean', bn.running_mean, 'by hand', 0.1 * mean:reshape(-1))
pyprint('running_var ', bn.running_var, 'by hand', 0.9 + 0.1 * var:reshape(-1) * n / (n - 1))
pyprint('batches seen:', bn.num_batches_tracked)
-- %% train() and eval()
-- In training mode a picture's output depends on the other pictures of
-- its batch: the mean and variance are theirs too. After training,
-- `net:eval()` switches every batch-norm layer to its running statistics,
-- so each picture gets one answer, alone or in any batch. Forgetting
-- `eval()` before testing is a classic bug: the test accuracy then moves
-- with the batch size.
function alone_vs_in_batch() return (bn(X['0:1']) - bn(X)['0:1']):abs():max():item() end
pyprint('training mode, alone vs in its batch:', alone_vs_in_batch())
bn:eval()
pyprint('eval mode,     alone vs in its batch:', alone_vs_in_batch())
-- %% LeNet with batch normalization
-- d2l's concise BNLeNet: lesson e4's LeNet with a batch-norm layer after
-- each convolution and each hidden dense layer, before its sigmoid.
-- `LazyBatchNorm2d()` learns its channel count from the first batch, as
-- the lazy convolutions do; after a dense layer the batch is [N, features],
-- and `BatchNorm1d` normalises each feature over the batch.
net = nn.Sequential(
  nn.LazyConv2d(6, 5), nn.LazyBatchNorm2d(), nn.Sigmoid(),
  nn.AvgPool2d(2, 2),
  nn.LazyConv2d(16, 5), nn.LazyBatchNorm2d(), nn.Sigmoid(),
  nn.AvgPool2d(2, 2), nn.Flatten(),
  nn.LazyLinear(120), nn.LazyBatchNorm1d(), nn.Sigmoid(),
  nn.LazyLinear(84), nn.LazyBatchNorm1d(), nn.Sigmoid(),
  nn.LazyLinear(10))
net(torch.rand(2, 1, 28, 28))  -- the first batch gives the lazy layers their shapes
print(net)
-- %% Training on the GPU
-- The same data and loop as lesson e4 (d2l.train_ch6: Xavier weights, SGD,
-- the batch moved to the device at each step), at the book's learning rate
-- for this network, 1.0: the normalised layers take steps that would throw
-- the plain LeNet's sigmoids into saturation. train_ch6 puts the network in
-- training mode for each epoch and in eval mode to test it. In a short run
-- the running statistics, moved a tenth of the way per batch, lag behind
-- the weights, so the test accuracy (eval mode) trails the training one;
-- over full epochs it catches up.
batch_size = 256
train_iter, test_iter = d2l.load_data_fashion_mnist(batch_size)
device = try_gpu()
lr, num_epochs = 1.0, d2l.quick() and 2 or 10
d2l.train_ch6(net, train_iter, test_iter, num_epochs, lr, device)
-- %% What was learned, and what runs where
-- The first batch-norm layer's learned scale and shift, one per channel
-- (d2l prints them as gamma and beta). On a GPU, PyTorch runs a batch
-- norm of 3 or more dimensions with a scale and a shift on cuDNN, and
-- names its backward so; a BatchNorm1d after a dense layer, on 2-D
-- batches, runs on its own kernels. gpulab does the same on a real GPU,
-- names them as PyTorch does on every CUDA device, and runs the
-- emulated GPU's batch norms on oneDNN, as the CPU's.
pyprint('gamma', net[1].weight:reshape(-1))
pyprint('beta ', net[1].bias:reshape(-1))
net:train()
h = torch.rand(4, 1, 28, 28, {device = device})
for i = 0, 10 do
  h = net[i](h)
  if i == 1 or i == 10 then
    pyprint(net[i]:_get_name(), 'on', h.device, '->', h.grad_fn:name())
  end
end
-- %% The full run
-- On the whole data set (60 000 images, 10 epochs, batch 256, lr 1.0), on
-- a 2-core machine without a GPU (cuda:0 emulated on the CPU):
--   gpulab:  epoch 10, loss 0.268, train acc 0.901, test acc 0.872, about
--            15 000 to 21 000 images a second
-- bench/lenet.lua and bench/lenet.py with BN=1 train this network in gpulab
-- and in PyTorch 2.15 from the same weights on the same batches: the ten
-- epochs agree to 0.001 (epoch 10: loss 0.261, train acc 0.904, test acc
-- 0.863 against 0.864). Lesson e4's LeNet ended at train acc 0.825 and test
-- acc 0.808; with batch norm the training accuracy is past that in the
-- second epoch. The test accuracy still jumps between epochs at this
-- learning rate (0.637 at epoch 4 of the run above, 0.872 at the end):
-- lower the rate in the last epochs, or average the last few, to settle it.
