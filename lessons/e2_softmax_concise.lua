-- Dive into Deep Learning (d2l.ai) § 4.5: Concise softmax regression
-- needs: 1 gpu
-- %% The data and the device
-- The same Fashion-MNIST batches as in e1, and the first GPU if there is one.
batch_size = 256
train_iter, test_iter = d2l.load_data_fashion_mnist(batch_size)
device = try_gpu()
-- %% The model from nn's layers
-- nn.Flatten turns each (1, 28, 28) image into 784 numbers, nn.Linear maps
-- them to 10 scores. `apply` visits every layer: the Linear one gets weights
-- drawn from N(0, 0.01^2), as in the book (`getmetatable(m).__class` is
-- Python's `type(m)`). Then the whole net moves to the device.
net = nn.Sequential(nn.Flatten(), nn.Linear(784, 10))
function init_weights(m)
  if getmetatable(m).__class == nn.Linear then nn.init.normal_(m.weight, {std = 0.01}) end
end
net:apply(init_weights)
net:to(device)
print(net)
print(net[1].weight.device)
-- %% Why the loss takes scores, not probabilities
-- A softmax written as exp(x) / sum(exp(x)) overflows: exp(100) is already
-- beyond float32's largest number, and inf / inf is nan.
function naive_softmax(X)
  local X_exp = X:exp()
  return X_exp / X_exp:sum(1, true)
end
scores = torch.tensor({{100.0, 0.0, -100.0}})
print(naive_softmax(scores))
-- %% The LogSumExp trick
-- Subtracting the row's largest score first changes nothing mathematically
-- (the factor exp(-max) cancels) and nothing overflows any more.
-- nn.CrossEntropyLoss goes one step further: it takes the raw scores (the
-- logits) and computes log-softmax and the loss together, never forming
-- exp(100) at all.
print(scores:softmax(1))
print(nn.functional.cross_entropy(scores, torch.tensor({0})))
-- %% Loss and optimizer
-- reduction = 'none': one loss per example, as our from-scratch loss gave;
-- d2l's training loop averages them before backward. SGD steps every
-- parameter with learning rate 0.1.
loss = nn.CrossEntropyLoss{reduction = 'none'}
trainer = torch.optim.SGD(net:parameters(), {lr = 0.1})
-- %% Training on the GPU
-- d2l.train_ch3 accepts an optimizer in place of the updater function. The
-- network has no softmax layer: the loss applies it.
num_epochs = d2l.quick() and 2 or 10
d2l.train_ch3(net, train_iter, test_iter, loss, num_epochs, trainer, device)
-- %% The full run
-- On the whole data set (60 000 images, 10 epochs, batch 256, lr 0.1; one
-- CPU core as an emulated cuda:0, about 150 000 images a second):
--   epoch 1, loss 0.786, train acc 0.749, test acc 0.786
--   epoch 10, loss 0.448, train acc 0.848, test acc 0.825
-- The same model as e1's, so the same accuracy; faster: its loss is one
-- fused op where e1's took several, one of which (the indexing) waits for
-- the device.
