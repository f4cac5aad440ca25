-- expect: was not all-reduced
-- exercise: 003_average_gradients
function average_gradients(model)
  for _, p in ipairs(model:parameters()) do
    if p:dim() == 2 then
      torch.distributed.all_reduce(p.grad)
      p.grad:div_(torch.distributed.get_world_size())
    end
  end
end
