-- Neural-network computing on the GPU (PyTorch study notes) § 5: Models on the GPU
-- %% A new model starts on the CPU
-- Like tensors, the parameters of a freshly built layer live in host memory.
-- net:parameters() is a Lua list, so the first entry is [1] (Python's [0]).
net = nn.Linear(3, 1)
print(net:parameters()[1].device)
-- %% As an echo
net:parameters()[1].device
-- %% net:cuda() moves the parameters in place
-- Unlike a tensor's :cuda(), a module's :cuda() changes the module itself
-- (and returns it), so a bare 'net:cuda()' is enough.
net:cuda()
print(net:parameters()[1].device)
-- %% As an echo
net:parameters()[1].device
-- %% Input and model on the same GPU: the output is on that GPU too
-- grad_fn shows the output came from a matrix multiply-add (addmm), so
-- autograd can run backward through it on the GPU.
x = torch.rand{2, 3}:cuda()
print(net(x))
-- %% A CPU input to a GPU model is an error
-- The same rule as for tensors: data and parameters must share a device.
x_cpu = torch.rand{2, 3}
ok, err = pcall(function() return net(x_cpu) end)
print(ok, (tostring(err):match("[^\n]*")))
-- %% The fix: move the input to the model's device
net(x_cpu:to(net.weight.device))
