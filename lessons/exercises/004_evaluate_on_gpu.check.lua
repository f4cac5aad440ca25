-- Checker for 004_evaluate_on_gpu.lua: a small net on the last GPU records,
-- at each call, its mode, the grad mode and where its input is; the data
-- (a last batch smaller than the others, some labels wrong on purpose) say
-- what the accuracy must be; the trace counts the host's reads.
-- needs: 1 GPU
local evaluate = need_function('evaluate_accuracy_gpu')
if not evaluate then return end
fresh_seed()
local device = torch.device('cuda:' .. (gpus() - 1))
local Probe, probe = probe_net(function(n_in, n_out) return nn.Linear(n_in, n_out) end)
local n, batch_size = 50 + math.random(0, 20), 16
if n % batch_size == 0 then n = n + 3 end
local net = Probe(6, 4):to(device)
local X = torch.randn(n, 6)
local predicted = net(X:to(device)):argmax(1):cpu():tolist()
local nbatches = (n + batch_size - 1) // batch_size
-- k labels made wrong: the accuracy is (n - k) / n. They are drawn again
-- until the mean of the batches' accuracies differs from it, so that this
-- mistake can never pass by chance.
local k = 5 + math.random(0, 5)
local labels
for _ = 1, 100 do
  labels = {table.unpack(predicted)}
  local wrong_in = {}
  for _, i in ipairs(torch.randperm(n)['0:' .. k]:tolist()) do
    labels[i + 1] = (labels[i + 1] + 1) % 4
    wrong_in[i // batch_size] = (wrong_in[i // batch_size] or 0) + 1
  end
  local mean_of_batches = 0
  for b = 0, nbatches - 1 do
    local size = math.min(batch_size, n - b * batch_size)
    mean_of_batches = mean_of_batches + (1 - (wrong_in[b] or 0) / size) / nbatches
  end
  if math.abs(mean_of_batches - (n - k) / n) > 1e-3 then break end
end
local y = torch.tensor(labels)
local expected = (n - k) / n
local loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(X, y), {batch_size = batch_size})
net:train()
local trace, acc = run_on_device('evaluate_accuracy_gpu', probe, device, evaluate, net, loader, device)
if not trace then return end
local calls = probe.calls
if calls[1].training then fail('the net was in training mode: call net:eval() first (dropout and batch norm behave differently)') return end
if calls[1].grad then
  fail('the net ran with autograd recording: wrap the loop in torch.no_grad(function() ... end); evaluation needs no graph')
  return
end
if torch.is_tensor(acc) then
  fail('evaluate_accuracy_gpu returned a tensor: read the count once at the end with :item() and return a Lua number')
  return
end
if type(acc) ~= 'number' then fail('evaluate_accuracy_gpu should return a number, not ' .. type(acc)) return end
if math.abs(acc - expected) > 1e-6 then
  local msg = ('evaluate_accuracy_gpu returned %.4f for data where %d of %d examples are right (%.4f)'):format(acc, n - k, n,
              expected)
  -- the mean of the batches' accuracies weighs the small last batch too much
  local P = net(X:to(device)):argmax(1):cpu():eq(y)
  local sum = 0
  for i = 0, nbatches - 1 do
    local part = P[('%d:%d'):format(i * batch_size, math.min(n, (i + 1) * batch_size))]
    sum = sum + part:sum():item() / part:numel()
  end
  if math.abs(acc - sum / nbatches) < 1e-6 then
    msg = msg .. ': that is the mean of the batches\' accuracies, and the last batch is smaller; '
          .. 'count the correct examples and divide by the number of examples'
  end
  fail(msg)
  return
end
check_device_traffic(trace, nbatches, 'count', 2)
