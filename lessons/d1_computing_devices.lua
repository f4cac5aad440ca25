-- Dive into Deep Learning, 5.6 GPUs § 5.6.1: Computing devices
-- needs: 2 gpus
-- %% Before we start: how many GPUs?
-- The section assumes at least two GPUs (it moves data between them); without
-- a GPU gpulab gives it two virtual ones. Its helpers fall back to the CPU,
-- so every cell still runs with fewer. `nvidia-smi` (or `torch.cuda.smi()`,
-- see lesson a2) lists them.
print(torch.cuda.smi())
-- %% Devices are values
-- torch.device('cpu') stands for all the CPU cores and host memory together;
-- 'cuda' is one GPU and its memory: the current one, which is cuda:0 unless
-- changed. 'cuda:1' names the second GPU (counting from 0). A Lua list of
-- expressions echoes as a tuple, as the same line does in Python.
torch.device('cpu'), torch.device('cuda'), torch.device('cuda:1')
-- %% str versus repr
-- Printing a device shows its short name; repr shows how to rebuild it.
cpu, gpu, gpu1 = torch.device('cpu'), torch.device('cuda'), torch.device('cuda:1')
print(cpu, gpu, gpu1)
print(repr(gpu1))
-- %% How many GPUs are there?
torch.cuda.device_count()
-- %% Helpers that still work without a GPU
-- d2l defines two helpers, and gpulab has them built in (`help(try_gpu)`):
-- - `try_gpu(i)` gives cuda:i when that device exists and falls back to the
--   CPU: `device_count() >= i + 1 and torch.device('cuda:' .. i) or cpu`.
-- - `try_all_gpus()` lists every CUDA device, or just the CPU when there
--   is none.
-- cuda:10 does not exist, so `try_gpu(10)` is the CPU. (`try_all_gpus()`
-- returns a Lua list; the echo shows it as Python shows a list.)
try_gpu(), try_gpu(10), try_all_gpus()
