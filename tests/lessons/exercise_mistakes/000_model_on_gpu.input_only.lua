-- expect: you moved the input but not the model
device = torch.device('cuda')
net = nn.Linear(3, 1)
x = torch.rand{2, 3}
x = x:to(device)
