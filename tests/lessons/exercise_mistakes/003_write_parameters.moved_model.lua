-- expect: the model was moved off the GPU
-- exercise: 003_write_parameters
function write_and_read(net, value)
  net:cpu()
  net[0].bias.data:fill_(value)
  return net[2].weight.data
end
