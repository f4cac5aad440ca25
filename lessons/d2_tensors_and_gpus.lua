-- Dive into Deep Learning, 5.6 GPUs § 5.6.2: Tensors and GPUs
-- needs: 2 gpus
-- %% This section needs two GPUs
-- It copies data from one GPU to another (without a GPU, gpulab gives it two
-- virtual ones). With one GPU, `try_gpu(1)` would give the CPU and
-- `X:cuda(1)` would fail: there is no cuda:1.
print("GPUs:", torch.cuda.device_count())
-- %% Where a tensor lives
-- By default a new tensor is created in host memory, on the CPU.
x = torch.tensor({1, 2, 3})
-- %% Its device
x.device
-- %% 5.6.2.1 Storing a tensor on a GPU
-- Give the device when you create it. It then uses only that GPU's memory,
-- which is limited: torch.cuda.memory_allocated(i) (or nvidia-smi) shows how
-- much is in use, and asking for more than the GPU has raises an error.
X = torch.ones(2, 3, {device = try_gpu()})
print("bytes in use on", X.device, torch.cuda.memory_allocated(X.device))
-- %% X
X
-- %% A random tensor on the second GPU
-- try_gpu(1) is cuda:1 when there are two GPUs (the CPU otherwise).
Y = torch.rand(2, 3, {device = try_gpu(1)})
-- %% Y
Y
-- %% 5.6.2.2 Copying: X and Y are on different GPUs
-- To compute X + Y, both must be on one device: adding them directly fails.
ok, err = pcall(function() return X + Y end)
print(ok, (tostring(err):match("[^\n]*")))
-- %% Copy X to the second GPU, then add there
-- X:cuda(1) returns a copy of X in the memory of cuda:1.
Z = X:cuda(1)
print(X)
print(Z)
-- %% Z and Y now share a device
Y + Z
-- %% Asking for the device a tensor already has
-- No copy is made: you get the very same tensor back (== on tensors is
-- identity, Python's `is`).
Z:cuda(1) == Z
-- %% 5.6.2.3 Side notes: transfers are not free
-- A GPU computes fast, but moving data between devices is slow by
-- comparison, and every transfer makes one side wait for the other. So: copy
-- rarely and in large pieces rather than often and in small ones, and keep
-- the data on the device while you work on it. Printing a GPU tensor,
-- :item() and :cpu() are transfers too: each first waits for the GPU to
-- finish, then copies across the bus. Exercises d5-d8 measure this.
print("Copying between devices is slow next to computing: copy rarely, in big pieces.")
print("print(x), x:item() and x:cpu() on a GPU tensor wait for the GPU, then copy.")
