-- Reference solution for exercises/000_mixed_devices.lua
x = torch.tensor({1, 2, 3})
y = torch.tensor({1, 4, 9}, {device = 'cuda:0'})

z = y + x:to(y.device)
