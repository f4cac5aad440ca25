-- expect: you moved the model but not the input
-- exercise: 000_model_on_gpu
device = torch.device('cuda')
net = nn.Linear(3, 1):to(device)
x = torch.rand{2, 3}
x:to(device)   -- the result is thrown away: x stays on the CPU
