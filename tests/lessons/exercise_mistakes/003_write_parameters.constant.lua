-- expect: (write the argument `value`, not a constant)
-- exercise: 003_write_parameters
function write_and_read(net, value)
  net[0].bias.data:fill_(0.5)
  return net[2].weight.data:cpu()
end
