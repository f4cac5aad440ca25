-- expect: it is not a host copy yet (:cpu())
-- exercise: 003_write_parameters
function write_and_read(net, value)
  net[0].bias.data:fill_(value)
  return net[2].weight.data
end
