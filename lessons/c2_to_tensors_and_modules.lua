-- Using GPUs in PyTorch (a course deck) § 2: :to() for tensors and for modules
-- needs: 1 gpu
-- %% :to() converts a dtype or a device
-- tensor:to(...) and module:to(...) both accept a dtype, a device, or both.
x = torch.ones{3, 3}
x = x:to(torch.float64)
print(x.dtype)
-- %% A tensor to the GPU
x = torch.ones{3, 3}
x = x:to('cuda')
print(x.device)
-- %% For a tensor :to() returns a new tensor
-- The original is left untouched, so you must keep the result (x = x:to(...)).
x = torch.ones{3, 3}
x_gpu = x:to('cuda')
print("x is still on", x.device, "; the result is on", x_gpu.device)
print("same object?", x_gpu == x)
-- %% If nothing has to change, :to() hands back the same tensor
print("x_gpu:to('cuda:0') == x_gpu ->", x_gpu:to('cuda:0') == x_gpu)
-- %% Device and dtype in one call
x:to('cuda', torch.float64)
-- %% Shorthand conversions
print(x:double().dtype, x:int().dtype, x:half().dtype)
-- %% Converting to an integer type drops the fraction
torch.tensor({1.9, -1.9, 2.5}):to(torch.int32)
-- %% For a module :to() works in place
-- It converts the module's own parameters and returns the module itself, so a
-- bare 'linear:to(...)' is enough.
linear = nn.Linear(2, 2)
print("before:", linear.weight.device, linear.weight.dtype)
print("linear:to(torch.float64) returned the same module:", linear:to(torch.float64) == linear)
print("now:   ", linear.weight.device, linear.weight.dtype)
-- %% And to a device
gpu1 = torch.device('cuda')
linear:to(gpu1)
print("after: ", linear.weight.device, linear.weight.dtype, "(bias on " .. tostring(linear.bias.device) .. ")")
