-- Dive into Deep Learning (d2l.ai) § 4.4: Softmax regression from scratch, on Fashion-MNIST
-- needs: 1 gpu
-- %% The data: Fashion-MNIST
-- d2l's classifiers learn from Fashion-MNIST: 70 000 grey 28x28 pictures of
-- clothes in 10 classes. gpulab reads it through torchvision's class of the
-- same name, from Debian's `dataset-fashion-mnist` package: there is no
-- network here, so `download = true` means "read Debian's copy when ../data
-- has none". `ToTensor()` turns each picture into a float (1, 28, 28) tensor
-- with values in [0, 1].
trans = torchvision.transforms.ToTensor()
mnist_train = torchvision.datasets.FashionMNIST{root = "../data", train = true, transform = trans, download = true}
mnist_test = torchvision.datasets.FashionMNIST{root = "../data", train = false, transform = trans, download = true}
print(#mnist_train, #mnist_test)
mnist_train
-- %% One example
-- An item is a pair {image, label} (Lua counts this list from 1; the data
-- set itself counts from 0, as in PyTorch). The labels are numbers 0..9.
X, y = table.unpack(mnist_train[0])
print(X.shape, X.dtype, y, d2l.get_fashion_mnist_labels({y})[1])
-- %% Reading the whole set is quick
-- The compressed files are inflated and decoded in C++: reading the 60 000
-- training images takes a fraction of a second.
t0 = time.perf_counter()
again = torchvision.datasets.FashionMNIST{train = true, transform = trans}
print(string.format("read %d images in %.2f s", #again, time.perf_counter() - t0))
-- %% Mini-batches
-- `d2l.load_data_fashion_mnist` wraps both sets in DataLoaders: shuffled
-- batches of 256 for training, batches in order for testing. A batch is
-- {X, y}: 256 images stacked along a new dimension 0, and their labels;
-- `for X, y in train_iter do` unpacks it, as Python's for does.
-- (The course's own tests run a quick version, on a slice of the data: the
-- line saying so appears only there.)
batch_size = 256
train_iter, test_iter = d2l.load_data_fashion_mnist(batch_size)
for X, y in train_iter do
  print(X.shape, X.dtype, y.shape, y.dtype)
  break
end
-- %% The parameters, on the GPU
-- Softmax regression flattens each image into 784 numbers and maps them to 10
-- scores, one per class: a 784x10 weight matrix and 10 biases. They are made
-- on the device the training will run on, and autograd tracks them.
device = try_gpu()
num_inputs, num_outputs = 784, 10
W = (torch.randn{num_inputs, num_outputs, device = device} * 0.01):requires_grad_()
b = torch.zeros{num_outputs, device = device, requires_grad = true}
print(W.shape, W.device, b.shape)
-- %% Softmax
-- softmax turns each row of scores into probabilities: exponentiate, then
-- divide by the row's sum. Every entry is positive and each row sums to 1.
function softmax(X)
  local X_exp = X:exp()
  local partition = X_exp:sum(1, true)
  return X_exp / partition
end
X = torch.rand{2, 5}
X_prob = softmax(X)
print(X_prob)
print(X_prob:sum(1))
-- %% The model
-- Flatten each image (reshape to 784 columns), multiply by W, add b, softmax.
function net(X)
  return softmax(X:reshape(-1, W.shape[0]):matmul(W) + b)
end
-- %% Cross-entropy
-- The loss of an example is -log of the probability the model gives its true
-- label. Two index tensors pick one entry per row: `y_hat[{rows, y}]` is
-- PyTorch's `y_hat[range(n), y]` (row 0's entry 0, row 1's entry 2 here).
y = torch.tensor({0, 2})
y_hat = torch.tensor({{0.1, 0.3, 0.6}, {0.3, 0.2, 0.5}})
print(y_hat[{torch.tensor({0, 1}), y}])
function cross_entropy(y_hat, y)
  local rows = torch.arange(y_hat:size(0), {device = y_hat.device})
  return -y_hat[{rows, y}]:log()
end
print(cross_entropy(y_hat, y))
-- %% Accuracy
-- The prediction is the class with the largest probability; d2l.accuracy
-- counts the rows where it is the label. Here 1 of 2.
print(d2l.accuracy(y_hat, y) / y:numel())
-- %% Before training: about one in ten right
-- d2l.evaluate_accuracy_gpu moves each test batch to the device and counts.
print(string.format("%.2f", d2l.evaluate_accuracy_gpu(net, test_iter, device)))
-- %% Minibatch SGD
-- The update of § 3.4: each parameter steps against its gradient, scaled by
-- the learning rate and divided by the batch size (the loss was summed over
-- the batch). no_grad: the update itself is not part of the model.
lr = 0.1
function sgd(params, lr, batch_size)
  torch.no_grad(function()
    for _, param in ipairs(params) do
      param:sub_(param.grad * (lr / batch_size))
      param.grad:zero_()
    end
  end)
end
function updater(batch_size) return sgd({W, b}, lr, batch_size) end
-- %% Training
-- d2l.train_ch3 runs the epochs: each batch moves to the device, the loss is
-- summed and back-propagated, the updater steps. One line per epoch: the mean
-- training loss, the accuracy on the training and test sets, and the speed.
-- The book trains 10 epochs; a quick run trains 2.
num_epochs = d2l.quick() and 2 or 10
d2l.train_ch3(net, train_iter, test_iter, cross_entropy, num_epochs, updater, device)
-- %% Predictions
-- The first six test images: their true labels and the model's guesses.
for Xb, yb in test_iter do
  X, y = Xb, yb
  break
end
preds = net(X:to(device)):argmax(1)
print(table.concat(d2l.get_fashion_mnist_labels(y['0:6']), ", "))
print(table.concat(d2l.get_fashion_mnist_labels(preds['0:6']), ", "))
-- %% The full run
-- This is what a learner's run prints, on the whole data set (60 000 images,
-- 10 epochs, batch 256, lr 0.1; one CPU core as an emulated cuda:0, about
-- 40 000 images a second):
--   epoch 1, loss 0.787, train acc 0.748, test acc 0.761
--   epoch 10, loss 0.447, train acc 0.849, test acc 0.831
-- The book reports about the same: a linear model gets roughly 83 % of the
-- test images right. The MLP of lesson e3 does better.
