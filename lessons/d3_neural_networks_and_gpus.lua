-- Dive into Deep Learning, 5.6 GPUs § 5.6.3: Neural networks and GPUs
-- needs: 1 gpu
-- %% A model on the GPU
-- A model's parameters can be placed on a device just like tensors:
-- net:to(device) moves them there (in place). try_gpu() picks cuda:0 when
-- it exists and the CPU otherwise, so the same code runs without a GPU.
net = nn.Sequential(nn.Linear(3, 1))
net = net:to(try_gpu())
X = torch.ones(2, 3, {device = try_gpu()})
print("parameters on", net[0].weight.device, "| X on", X.device)
-- %% On a GPU input the model computes on that GPU
-- Both rows of X are equal, so both outputs are equal.
net(X)
-- %% The parameters are on the same GPU as the data
net[0].weight.data.device
-- %% Everything on one device
-- As long as the data and all parameters are on one device, the model can be
-- trained there. A CPU input to this GPU model fails the usual check.
ok, err = pcall(function() return net(torch.ones(2, 3)) end)
print(ok, (tostring(err):match("[^\n]*")))
-- %% Moving back
-- :cpu() (or :to('cpu')) brings every parameter back to host memory, again
-- in place.
net:cpu()
print("after net:cpu(): weight on", net[0].weight.device, ", bias on", net[0].bias.device)
