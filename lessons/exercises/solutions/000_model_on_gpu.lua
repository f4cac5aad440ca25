-- exercise: 000_model_on_gpu
-- Reference solution
device = torch.device(torch.cuda.is_available() and 'cuda' or 'cpu')
net = nn.Linear(3, 1)
x = torch.rand{2, 3}

-- A module moves in place and returns itself, so either form works.
net = net:to(device)
-- A tensor's :to() returns a new tensor: keep it.
x = x:to(device)
