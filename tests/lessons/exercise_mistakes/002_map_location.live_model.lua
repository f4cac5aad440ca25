-- expect: load_on_cpu must read the file it is given (not copy weights from a live model)
-- exercise: 002_map_location
net = nn.Linear(4, 2):cuda()
function load_on_cpu(path)
  return {weight = net.weight.data:cpu(), bias = net.bias.data:cpu()}
end
