-- expect: the bias was written through a CPU round trip
-- exercise: 003_write_parameters
function write_and_read(net, value)
  local b = net[0].bias.data:cpu()
  b:fill_(value)
  net[0].bias.data:copy_(b)
  return net[2].weight.data:cpu()
end
