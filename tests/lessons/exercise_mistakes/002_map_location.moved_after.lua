-- expect: load_on_cpu put the tensors on the GPU and then moved them to the CPU
-- exercise: 002_map_location
function load_on_cpu(path)
  local sd = torch.load(path)
  for k, v in pairs(sd) do sd[k] = v:cpu() end
  return sd
end
