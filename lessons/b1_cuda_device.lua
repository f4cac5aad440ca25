-- PyTorch on the GPU and data parallelism § 1: Choosing the CUDA device
-- %% One device variable for the whole script
-- Before anything goes to a GPU, check that CUDA can be used. The first GPU
-- when there is one, the CPU otherwise: the rest of the code only ever says
-- :to(device), so it runs unchanged on a machine without a GPU.
device = torch.device(torch.cuda.is_available() and "cuda:0" or "cpu")
print(device)
-- %% Its repr
device
-- %% What a machine without a GPU would print
-- We play such a machine with a second gpulab that sees no GPU at all (no
-- virtual devices, and CUDA_VISIBLE_DEVICES set to the empty string).
exe = arg[-1]
i = -1
while arg[i - 1] ~= nil do i = i - 1; exe = arg[i] end
code = 'print(torch.device(torch.cuda.is_available() and "cuda:0" or "cpu"))'
p = io.popen(string.format("env -u GPULAB_VIRTUAL_GPUS CUDA_VISIBLE_DEVICES= '%s' -e '%s' 2>&1", exe, code))
io.write(p:read('a'))
p:close()
