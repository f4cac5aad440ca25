-- expect: the mean needs the SUM
-- exercise: 003_average_gradients
function average_gradients(model)
  for _, p in ipairs(model:parameters()) do
    torch.distributed.all_reduce(p.grad, {op = torch.distributed.ReduceOp.MAX})
  end
end
