-- PyTorch on the GPU and data parallelism § 1: Choosing the CUDA device
-- needs: 1 gpu
-- %% One device variable for the whole script
-- Before anything goes to a GPU, check that CUDA can be used. The first GPU
-- when there is one, the CPU otherwise: the rest of the code only ever says
-- `:to(device)`, so it runs unchanged on a machine without a GPU.
device = torch.device(torch.cuda.is_available() and "cuda:0" or "cpu")
print(device)
-- %% Its repr
device
-- %% What a machine without a GPU would print
-- `CUDA_VISIBLE_DEVICES=` (empty) hides every GPU from a new process, which
-- then behaves as on a machine without one. The variable is read when a
-- process first uses CUDA, so it takes a second process:
-- `torch.cuda.run_with_visible_devices` starts one and prints its output.
torch.cuda.run_with_visible_devices('', [[
device = torch.device(torch.cuda.is_available() and "cuda:0" or "cpu")
print(device)
]])
