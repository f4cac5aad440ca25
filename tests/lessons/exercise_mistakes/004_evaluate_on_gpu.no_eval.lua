-- expect: was in training mode
-- exercise: 004_evaluate_on_gpu
function evaluate_accuracy_gpu(net, data_iter, device)
  local correct, total = torch.zeros({}, {dtype = torch.int64, device = device}), 0
  torch.no_grad(function()
    for batch in data_iter do
      local X, y = batch[1]:to(device), batch[2]:to(device)
      correct = correct + net(X):argmax(1):eq(y):sum()
      total = total + y:numel()
    end
  end)
  return correct:item() / total
end
