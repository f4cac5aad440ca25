-- Neural-network computing on the GPU (PyTorch study notes) § 4: Tensors on the GPU
-- needs: 2 gpus
-- %% A new tensor lives in host memory
-- Its printout has no device suffix: the CPU is the default.
x = torch.tensor({1, 2, 3})
print(x)
-- %% Copying it to a GPU
-- x:cuda(i) returns a copy in the memory of cuda:i; x:cuda() means x:cuda(0).
-- Printing now shows where the data lives.
x = x:cuda(0)
print(x)
-- %% The device attribute
-- print() shows a device's short name; the echo shows its repr.
print(x.device)
-- %% Same thing as an echo
x.device
-- %% Choosing the device when you create a tensor
-- The usual idiom: a GPU if there is one, the CPU otherwise. Create directly
-- there with device=..., or create on the CPU and move with :to(device).
device = torch.device(torch.cuda.is_available() and 'cuda' or 'cpu')
x = torch.tensor({1, 2, 3}, {device = device})
print(x)
print(torch.tensor({1, 2, 3}):to(device))
-- %% Results stay where the inputs are
y = x ^ 2
print(y)
-- %% Mixing devices is an error
-- Every input of one operation must be on the same device. Adding a CPU copy
-- to a GPU tensor fails. (Old PyTorch versions worded this differently, in
-- terms of tensor types; the rule is the same.)
z = x:cpu()
ok, err = pcall(function() return y + z end)
print(ok, (tostring(err):match("[^\n]*")))
-- %% Two GPUs are two devices too
-- Tensors on different GPUs cannot be combined directly either. (With a
-- single GPU the copy to cuda:1 fails first: there is no such device.)
ok, err = pcall(function() return y + x:cuda(1) end)
print(ok, (tostring(err):match("[^\n]*")))
-- %% The fix: move one side first
print(y + z:to(y.device))
