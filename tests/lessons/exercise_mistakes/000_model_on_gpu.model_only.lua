-- expect: you moved the model but not the input
device = torch.device('cuda')
net = nn.Linear(3, 1):to(device)
x = torch.rand{2, 3}
x:to(device)   -- the result is thrown away: x stays on the CPU
