-- expect: you moved the input but not the model
-- exercise: 000_model_on_gpu
device = torch.device('cuda')
net = nn.Linear(3, 1)
x = torch.rand{2, 3}
x = x:to(device)
