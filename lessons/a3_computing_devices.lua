-- Neural-network computing on the GPU (PyTorch study notes) § 3: Computing devices
-- needs: 1 gpu
-- %% Where work happens by default
-- Unless you ask for something else, every tensor is stored in host memory
-- and every operation on it runs on the CPU.
torch.tensor({1, 2, 3}).device
-- %% Is there a CUDA device at all?
-- torch.cuda.is_available() answers whether any CUDA device can be used.
torch.cuda.is_available()
-- %% How many?
torch.cuda.device_count()
-- %% Which one is the current device?
-- Indices count from 0. 'cuda' without an index means this one.
torch.cuda.current_device()
-- %% What is it called?
torch.cuda.get_device_name(0)
-- %% Virtual devices say so
-- gpulab can emulate GPUs (--virtual-gpus N). They behave like GPUs but
-- compute on the CPU, so they are no faster; torch.cuda.is_virtual tells.
for i = 0, torch.cuda.device_count() - 1 do
  print(i, torch.cuda.get_device_name(i), torch.cuda.is_virtual(i) and "(virtual)" or "")
end
