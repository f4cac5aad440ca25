-- expect: the model is still on cpu
-- exercise: 000_model_on_gpu
net = nn.Linear(3, 1)
x = torch.rand{2, 3}
