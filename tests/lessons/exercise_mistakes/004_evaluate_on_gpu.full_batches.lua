-- expect: examples are right
-- exercise: 004_evaluate_on_gpu
function evaluate_accuracy_gpu(net, data_iter, device)
  net:eval()
  local correct = torch.zeros({}, {dtype = torch.int64, device = device})
  torch.no_grad(function()
    for batch in data_iter do
      local X, y = batch[1]:to(device), batch[2]:to(device)
      correct = correct + net(X):argmax(1):eq(y):sum()
    end
  end)
  return correct:item() / (#data_iter * data_iter.batch_size)
end
