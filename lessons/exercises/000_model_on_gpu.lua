-- Exercise (tutorial 000, models on the GPU): run a model on the GPU.
-- Fill in the two blanks (the `...`), then run:  gpulab check THIS_FILE --virtual-gpus 2
-- The checker will call net(x) for you and look at where everything lives.
device = torch.device(torch.cuda.is_available() and 'cuda' or 'cpu')
net = nn.Linear(3, 1)
x = torch.rand{2, 3}

-- TODO: move the model to `device` (remember what :to() returns for a module)
net = ...
-- TODO: move the input to `device` (a tensor's :to() returns a new tensor)
x = ...
