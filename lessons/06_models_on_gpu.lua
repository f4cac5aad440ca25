-- Models on the GPU: parameters, net:cuda() and net:to(device)
-- %% A new model starts on the CPU
-- Like tensors, the parameters of a freshly built layer live in host memory.
net = nn.Linear(3, 1)
print("nn.Linear(3, 1) keeps a weight and a bias; both start on the CPU:")
print("weight on", net.weight.device, ", bias on", net.bias.device)
-- %% The first parameter's device, as PyTorch shows it
-- net:parameters() is a Lua list, so the first entry is [1] (Python's [0]).
net:parameters()[1].device
-- %% net:cuda() moves the parameters in place
-- Unlike a tensor's :cuda(), a module's :cuda() changes the module itself
-- and returns it, so a bare 'net:cuda()' is enough (no assignment needed).
same = net:cuda()
print("net:cuda() returned the module itself:", same == net)
print("the weight is now on", net.weight.device, "and the bias on", net.bias.device)
-- %% Input and model on the same GPU: the output is on that GPU too
x = torch.rand{2, 3}:cuda()
print("x is on", x.device, "- feeding it to the model:")
print(net(x))
print("The output lives on cuda:0, and grad_fn shows it came from a matrix")
print("multiply-add (addmm), so autograd can run backward through it on the GPU.")
-- %% A CPU input to a GPU model is an error
print("The same rule as for tensors: every input of an operation must be on one")
print("device. Calling the GPU model on a CPU tensor:")
x_cpu = torch.rand{2, 3}
ok, err = pcall(function() return net(x_cpu) end)
print(ok, (tostring(err):match("[^\n]*")))
print("Fix: move the input to the model's device, net(x_cpu:to(net.weight.device)):")
print(net(x_cpu:to(net.weight.device)).device)
-- %% The d2l way: a Sequential moved with :to(try_gpu())
-- try_gpu() picks cuda:0 when it exists and falls back to the CPU, so the same
-- code runs on a laptop without a GPU.
net = nn.Sequential(nn.Linear(3, 1))
net = net:to(try_gpu())
X = torch.ones{2, 3, device = try_gpu()}
print("net:to(try_gpu()) moved the Sequential to", try_gpu(), "; X is on", X.device)
-- %% On a GPU input the model computes on that GPU
-- Both rows of X are equal, so both outputs are equal.
net(X)
-- %% The parameters are on the same GPU as the data
net[0].weight.data.device
-- %% Moving back
-- :cpu() brings every parameter back to host memory, again in place.
net:cpu()
print("after net:cpu(): weight on", net[0].weight.device, ", bias on", net[0].bias.device)
-- %% Summary
print("* You choose where data is stored and computed: the CPU or a GPU. By default")
print("  tensors and parameters are created in host memory and the CPU computes.")
print("* Every input of a computation, data and parameters alike, must be on the")
print("  same device; otherwise you get the 'same device' error above.")
print("* Moving data carelessly costs a lot of time. A classic mistake is to copy")
print("  the loss of every minibatch to the host to print or log it: each copy")
print("  waits for the GPU. Keep the log on the device and copy it back rarely.")
