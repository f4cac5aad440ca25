-- exercise: 004_evaluate_on_gpu
-- Measure a classifier's accuracy on the GPU, waiting for it once (lesson e3)
-- evaluate_accuracy_gpu(net, data_iter, device) returns the fraction of the
-- examples in data_iter (batches {X, y}) that net classifies right: the
-- largest of the scores in a row of net(X) is at the label.
-- d2l's version reads each batch's count back to the host, so the CPU waits
-- for the GPU once per batch. Write it so that:
--   - net is in eval mode and runs without autograd (torch.no_grad);
--   - each batch moves to `device` (the argument: it may be any GPU);
--   - the running count stays a tensor on `device`, read back ONCE at the end;
--   - it returns a Lua number: correct predictions / number of examples.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 2)

function evaluate_accuracy_gpu(net, data_iter, device)
  net:eval()
  local correct, total = 0, 0
  for X, y in data_iter do
    -- TODO: on `device`, without autograd, and no :item() in the loop
    correct = correct + net(X):argmax(1):eq(y):sum():item()
    total = total + y:numel()
  end
  return correct / total
end

device = try_gpu()
net = nn.Sequential(nn.Flatten(), nn.Linear(784, 10)):to(device)
train_iter, test_iter = d2l.load_data_fashion_mnist(256)
print(evaluate_accuracy_gpu(net, test_iter, device))   -- about 0.1 before training
