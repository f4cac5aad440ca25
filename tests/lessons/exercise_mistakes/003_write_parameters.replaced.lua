-- expect: net[0].bias was replaced by a new tensor: write into the existing one (net[0].bias.data:fill_(...) or :copy_(...))
-- exercise: 003_write_parameters
function write_and_read(net, value)
  net[0].bias = nn.Parameter(torch.full({3}, value, {device = net[0].weight.device}))
  return net[2].weight.data:cpu()
end
