-- Reference solution for exercises/003_write_parameters.lua
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1)):to(try_gpu())
first_bias = net[0].bias

net[0].bias.data:fill_(0.5)

w_host = net[2].weight.data:cpu()
