-- exercise: 000_mixed_devices
-- Reference solution: move the small CPU operand to y's device, add there.
function add_on_gpu(x, y)
  return y + x:to(y.device)
end

x = torch.tensor({1, 2, 3})
y = torch.tensor({1, 4, 9}, {device = 'cuda:0'})
print(add_on_gpu(x, y))
