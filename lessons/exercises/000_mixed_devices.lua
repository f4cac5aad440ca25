-- Exercise (tutorial 000, tensors on the GPU): fix a mixed-device addition.
-- y is on the GPU, x on the CPU, so `y + x` raises "Expected all tensors to be
-- on the same device". Compute the sum ON THE GPU without changing y.
-- Run:  gpulab check THIS_FILE --virtual-gpus 2
x = torch.tensor({1, 2, 3})
y = torch.tensor({1, 4, 9}, {device = 'cuda:0'})

-- TODO: z = y + (x on y's device)
z = ...
