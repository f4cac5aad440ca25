-- expect: the gradients are summed but not divided by the number of ranks
-- exercise: 003_average_gradients
function average_gradients(model)
  for _, p in ipairs(model:parameters()) do torch.distributed.all_reduce(p.grad) end
end
