-- expect: compute y + x from the arguments (a result written into the code fits only one input)
-- exercise: 000_mixed_devices
function add_on_gpu(x, y)
  return torch.tensor({2, 6, 12}, {device = 'cuda:0'})
end
