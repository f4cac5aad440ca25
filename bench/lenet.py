# d2l 7.6 LeNet on Fashion-MNIST in PyTorch, as lessons/e4_lenet.lua trains it in gpulab:
# the same IDX files (Debian's dataset-fashion-mnist), layers, init, lr 0.9, batch 256, seed 0.
# Prints d2l's line per epoch; DEVICE (default cpu) and BN=1 (d2l 8.5's BNLeNet, lr 1.0) as in lenet.lua. Needs torch and numpy. Run by bench/lenet.sh.
import gzip, time, numpy as np, torch
from torch import nn
def idx(p):
    with gzip.open(p) as f: b = f.read()
    nd = b[3]; dims = [int.from_bytes(b[4+4*i:8+4*i], 'big') for i in range(nd)]
    return np.frombuffer(b, np.uint8, offset=4+4*nd).reshape(dims)
import os, sys
root = os.environ.get("FASHION_MNIST", "/usr/share/datasets/fashion-mnist") + "/"
EPOCHS = int(os.environ.get("EPOCHS", "10"))
device = torch.device(os.environ.get("DEVICE", "cpu"))  # as bench/lenet.lua
Xtr = torch.tensor(idx(root+'train-images-idx3-ubyte.gz'), dtype=torch.float32).unsqueeze(1) / 255
ytr = torch.tensor(idx(root+'train-labels-idx1-ubyte.gz'), dtype=torch.int64)
Xte = torch.tensor(idx(root+'t10k-images-idx3-ubyte.gz'), dtype=torch.float32).unsqueeze(1) / 255
yte = torch.tensor(idx(root+'t10k-labels-idx1-ubyte.gz'), dtype=torch.int64)
torch.manual_seed(0)
train_iter = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(Xtr, ytr), batch_size=256, shuffle=True)
test_iter = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(Xte, yte), batch_size=256)
BN = os.environ.get("BN") == "1"
if BN:
    net = nn.Sequential(nn.LazyConv2d(6, 5), nn.LazyBatchNorm2d(), nn.Sigmoid(), nn.AvgPool2d(2, 2),
                        nn.LazyConv2d(16, 5), nn.LazyBatchNorm2d(), nn.Sigmoid(), nn.AvgPool2d(2, 2), nn.Flatten(),
                        nn.LazyLinear(120), nn.LazyBatchNorm1d(), nn.Sigmoid(), nn.LazyLinear(84), nn.LazyBatchNorm1d(),
                        nn.Sigmoid(), nn.LazyLinear(10))
else:
    net = nn.Sequential(nn.LazyConv2d(6, 5, padding=2), nn.Sigmoid(), nn.AvgPool2d(2, 2),
                        nn.LazyConv2d(16, 5), nn.Sigmoid(), nn.AvgPool2d(2, 2), nn.Flatten(),
                        nn.LazyLinear(120), nn.Sigmoid(), nn.LazyLinear(84), nn.Sigmoid(), nn.LazyLinear(10))
net(torch.rand(2 if BN else 1, 1, 28, 28))  # batch norm in training mode needs two pictures
def init(m):
    if type(m) in (nn.Linear, nn.Conv2d): nn.init.xavier_uniform_(m.weight)
net.apply(init)
net.to(device)
opt = torch.optim.SGD(net.parameters(), lr=1.0 if BN else 0.9); loss = nn.CrossEntropyLoss()
for epoch in range(EPOCHS):
    net.train(); t0 = time.time(); L = A = N = 0
    for X, y in train_iter:
        X, y = X.to(device), y.to(device)
        opt.zero_grad(); y_hat = net(X); l = loss(y_hat, y); l.backward(); opt.step()
        with torch.no_grad():
            L += l.item() * X.shape[0]; A += (y_hat.argmax(1) == y).sum().item(); N += X.shape[0]
    dt = time.time() - t0
    net.eval()
    with torch.no_grad(): acc = sum((net(X.to(device)).argmax(1) == y.to(device)).sum().item() for X, y in test_iter) / len(yte)
    print(f'epoch {epoch+1}, loss {L/N:.3f}, train acc {A/N:.3f}, test acc {acc:.3f}, {N/dt:.1f} examples/sec on {device}', flush=True)
