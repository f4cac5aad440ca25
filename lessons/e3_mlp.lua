-- Dive into Deep Learning (d2l.ai) § 5.1–5.2: Multilayer perceptrons, from scratch and concise
-- needs: 1 gpu
-- %% A hidden layer needs a nonlinearity
-- Two linear layers in a row are still one linear map. Between them an MLP
-- puts an activation function; ReLU keeps positive values and zeroes the
-- rest: relu(x) = max(x, 0).
x = torch.arange(-3.0, 3.0, 1.0, {requires_grad = true})
y = torch.relu(x)
print(y)
-- %% Its gradient
-- The derivative of ReLU is 0 left of zero and 1 right of it (PyTorch takes 0
-- at zero itself).
y:backward(torch.ones_like(x))
print(x.grad)
-- %% Sigmoid and tanh
-- The older activations squash every input into (0, 1) and (-1, 1).
x = torch.tensor({-2.0, 0.0, 2.0})
print(torch.sigmoid(x))
print(torch.tanh(x))
-- %% The data and the device
batch_size = 256
train_iter, test_iter = d2l.load_data_fashion_mnist(batch_size)
device = try_gpu()
-- %% An MLP from scratch: the parameters
-- 784 inputs, one hidden layer of 256 units, 10 outputs: two weight
-- matrices and two bias vectors, made on the device, small random weights
-- (scaled by 0.01) so that the units start different from each other.
num_inputs, num_outputs, num_hiddens = 784, 10, 256
W1 = (torch.randn{num_inputs, num_hiddens, device = device} * 0.01):requires_grad_()
b1 = torch.zeros{num_hiddens, device = device, requires_grad = true}
W2 = (torch.randn{num_hiddens, num_outputs, device = device} * 0.01):requires_grad_()
b2 = torch.zeros{num_outputs, device = device, requires_grad = true}
params = {W1, b1, W2, b2}
-- %% The model
-- ReLU written by hand, as the elementwise maximum with a zero tensor; the
-- network returns scores (logits): the loss applies the softmax.
function relu(X)
  local a = torch.zeros_like(X)
  return torch.maximum(X, a)
end
function net(X)
  X = X:reshape(-1, num_inputs)
  local H = relu(X:matmul(W1) + b1)
  return H:matmul(W2) + b2
end
-- %% Training
-- The same loop as softmax regression, with PyTorch's cross-entropy and SGD
-- over our four tensors.
loss = nn.CrossEntropyLoss{reduction = 'none'}
num_epochs, lr = d2l.quick() and 2 or 10, 0.1
updater = torch.optim.SGD(params, {lr = lr})
d2l.train_ch3(net, train_iter, test_iter, loss, num_epochs, updater, device)
-- %% Concise: the same MLP from layers
-- nn.Sequential holds the layers; d2l.train_ch6 initialises the Linear
-- layers' weights (Xavier), moves the net to the device and trains it with
-- SGD and cross-entropy: the loop the LeNet lesson uses next.
net = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
print(net)
d2l.train_ch6(net, train_iter, test_iter, num_epochs, lr, device)
-- %% The full run
-- On the whole data set (60 000 images, 10 epochs, batch 256, lr 0.1; one
-- CPU core as an emulated cuda:0, about 18 000 images a second):
--   from scratch:  epoch 10, loss 0.386, train acc 0.863, test acc 0.855
--   concise:       epoch 10, loss 0.352, train acc 0.875, test acc 0.861
-- Both beat softmax regression's 0.83: the hidden layer's ReLUs let the
-- model draw non-linear boundaries between the classes.
