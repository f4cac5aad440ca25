-- exercise: 004_evaluate_on_gpu
-- A reference solution.
function evaluate_accuracy_gpu(net, data_iter, device)
  net:eval()
  local correct = torch.zeros({}, {dtype = torch.int64, device = device})
  local total = 0
  torch.no_grad(function()
    for X, y in data_iter do
      X, y = X:to(device), y:to(device)
      correct = correct + net(X):argmax(1):eq(y):sum()
      total = total + y:numel()
    end
  end)
  return correct:item() / total
end
