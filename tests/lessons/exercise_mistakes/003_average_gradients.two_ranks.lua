-- expect: divide by torch.distributed.get_world_size()
-- exercise: 003_average_gradients
function average_gradients(model)
  for _, p in ipairs(model:parameters()) do
    torch.distributed.all_reduce(p.grad)
    p.grad:div_(2)
  end
end
