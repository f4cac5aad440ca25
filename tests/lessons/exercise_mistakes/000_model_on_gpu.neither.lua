-- expect: the model is still on cpu
net = nn.Linear(3, 1)
x = torch.rand{2, 3}
