-- exercise: 000_model_on_gpu
-- Run a model and its input on the GPU (lessons a5, c2, d3)
-- Fill in the two blanks (the `...`). The checker calls net(x) for you and
-- looks at where everything lives and where the forward pass runs.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 2)
device = torch.device(torch.cuda.is_available() and 'cuda' or 'cpu')
net = nn.Linear(3, 1)
x = torch.rand{2, 3}

-- TODO: move the model to `device` (remember what :to() returns for a module)
net = ...
-- TODO: move the input to `device` (a tensor's :to() returns a new tensor)
x = ...
