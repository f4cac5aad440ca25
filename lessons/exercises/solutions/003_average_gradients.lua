-- exercise: 003_average_gradients
-- Reference solution: what DistributedDataParallel does after backward (it
-- divides first, then sums, in buckets of many gradients at once).
function average_gradients(model)
  local world = torch.distributed.get_world_size()
  for _, p in ipairs(model:parameters()) do
    if p.grad ~= nil then
      torch.distributed.all_reduce(p.grad)
      p.grad:div_(world)
    end
  end
end
