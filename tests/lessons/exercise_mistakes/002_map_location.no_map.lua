-- expect: the tensors are still on cuda:0: a CPU-only machine cannot create them there; pass {map_location = 'cpu'}
-- exercise: 002_map_location
function load_on_cpu(path)
  return torch.load(path)
end
