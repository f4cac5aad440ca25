-- Neural-network computing on the GPU (PyTorch study notes) § 5: Models on the GPU
-- needs: 1 gpu
-- %% A new model starts on the CPU
-- Like tensors, the parameters of a freshly built layer live in host memory.
-- Python writes `list(net.parameters())[0]` for the first parameter. Here
-- `net:parameters()` is a *Lua list*, and Lua lists count from 1: the first
-- entry is `[1]`. (Tensors, dims, devices and `nn.Sequential` still count
-- from 0, as in PyTorch.)
net = nn.Linear(3, 1)
net:parameters()[1].device
-- %% A Python habit, caught
-- `[0]` on such a list is an error that says what to write instead.
ok, err = pcall(function() return net:parameters()[0] end)
print((tostring(err):gsub("^[^:]*:%d+: ", "")))
-- %% Or name the parameter
-- A layer's parameters are also fields: `net.weight` is the first one.
net.weight.device
-- %% net:cuda() moves the parameters in place
-- Unlike a tensor's `:cuda()`, a module's `:cuda()` changes the module itself
-- (and returns it), so a bare `net:cuda()` is enough.
net:cuda()
net:parameters()[1].device
-- %% Input and model on the same GPU: the output is on that GPU too
-- `grad_fn` shows the output came from a matrix multiply-add (addmm), so
-- autograd can run backward through it on the GPU.
x = torch.rand{2, 3}:cuda()
net(x)
-- %% A CPU input to a GPU model is an error
-- The same rule as for tensors: data and parameters must share a device.
x_cpu = torch.rand{2, 3}
ok, err = pcall(function() return net(x_cpu) end)
print(ok, (tostring(err):match("[^\n]*")))
-- %% The fix: move the input to the model's device
net(x_cpu:to(net.weight.device))
