-- expect: z is on cpu: you moved y to the CPU instead of x to the GPU
x = torch.tensor({1, 2, 3})
y = torch.tensor({1, 4, 9}, {device = 'cuda:0'})
z = y:cpu() + x
