-- expect: net[0].bias was replaced by a new tensor: write into the existing one (net[0].bias.data:fill_(...) or :copy_(...))
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1)):to(try_gpu())
first_bias = net[0].bias
net[0].bias = nn.Parameter(torch.full({3}, 0.5))
w_host = net[2].weight.data:cpu()
