-- expect: mean of the batches' accuracies
-- exercise: 004_evaluate_on_gpu
function evaluate_accuracy_gpu(net, data_iter, device)
  net:eval()
  local sum, batches = torch.zeros({}, {device = device}), 0
  torch.no_grad(function()
    for batch in data_iter do
      local X, y = batch[1]:to(device), batch[2]:to(device)
      sum = sum + net(X):argmax(1):eq(y):float():mean()
      batches = batches + 1
    end
  end)
  return sum:item() / batches
end
