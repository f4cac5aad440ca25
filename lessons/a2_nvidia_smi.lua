-- Neural-network computing on the GPU (PyTorch study notes) § 2: nvidia-smi
-- needs: 1 gpu
-- %% Looking at the GPUs from outside
-- NVIDIA's driver ships a command-line tool, nvidia-smi, that lists each GPU
-- with its driver, memory in use and load, and the processes using it. You run
-- it in a shell (in a notebook: !nvidia-smi). On Windows the Task Manager's
-- Performance tab shows much the same. gpulab draws a similar table with
-- torch.cuda.smi(), for real and virtual devices alike.
print(torch.cuda.smi())
-- %% Memory use shows up in the table
-- A 64 MiB tensor on cuda:0 (16M float32 values of 4 bytes each) appears in
-- the Memory-Usage column of GPU 0.
block = torch.empty{16 * 1024 * 1024, device = 'cuda:0'}
print(torch.cuda.smi())
-- %% Freeing it
-- Dropping the last reference frees the tensor: `memory_allocated` falls to 0
-- at once. But PyTorch (and gpulab) keep the freed block in a cache for
-- reuse: `memory_reserved` still counts it, and so does nvidia-smi, until
-- torch.cuda.empty_cache() gives it back to the driver.
block = nil
print(torch.cuda.memory_allocated(0), torch.cuda.memory_reserved(0))
torch.cuda.empty_cache()
print(torch.cuda.smi())
