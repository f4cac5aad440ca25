-- Tensors on the GPU: placing, moving and mixing
-- %% Where a new tensor lives
x = torch.tensor({1, 2, 3})
print("A tensor made without a device is on:", x.device)
-- %% Printing it shows no device: the CPU is the default
x
-- %% Copying a tensor to a GPU
-- x:cuda(i) returns a copy on cuda:i; x:cuda() is the same as x:cuda(0).
print("x:cuda(0) makes a copy in the memory of GPU 0; x itself stays on the CPU.")
xg = x:cuda(0)
print(xg)
print("x.device =", x.device, " xg.device =", xg.device)
-- %% Choosing the device when you create a tensor
-- The usual idiom: use a GPU if there is one, the CPU otherwise.
device = torch.cuda.is_available() and torch.device('cuda') or torch.device('cpu')
print("Create directly on a device with device=..., or move later with :to(device):")
print(torch.tensor({1, 2, 3}, {device = device}))
print(torch.tensor({1, 2, 3}):to(device))
-- %% Results stay where the inputs are
print("Squaring a GPU tensor gives a GPU tensor:")
y = xg ^ 2
print(y)
-- %% Mixing devices is an error
print("An operation needs all its inputs on one device. Adding a CPU tensor to a GPU one:")
ok, err = pcall(function() return y + x end)
print(ok, (tostring(err):match("[^\n]*")))
print("Fix: move one side first, e.g. y + x:to(y.device):")
print(y + x:to(y.device))
-- %% Two GPUs: copy, then compute
-- X is made on cuda:0, Y on cuda:1. To add them, copy X to cuda:1 first.
X = torch.ones{2, 3, device = 'cuda:0'}
Y = torch.rand{2, 3, device = 'cuda:1'}
Z = X:cuda(1)
print("X on", X.device, "was copied to Z on", Z.device)
print(Z)
print("Now Y and Z share a device, so Y + Z works:")
print(Y + Z)
-- %% Asking for the device a tensor already has
-- No copy is made: you get the very same tensor back (== on tensors is identity).
print("Z:cuda(1) == Z ->", Z:cuda(1) == Z)
print("Z:cuda(0) == Z ->", Z:cuda(0) == Z)
-- %% Transfers are not free
print("Moving data between devices is slow compared with computing on it.")
print("Keep tensors on one device for as long as you can, and avoid many small")
print("copies (x:item(), printing, x:cpu()) inside loops: each one waits for the")
print("device to finish and then copies across the bus.")
