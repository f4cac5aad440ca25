-- Dive into Deep Learning, 5.6 GPUs § 5.6.5, exercise 2: Reading and writing parameters on the GPU
-- needs: 1 gpu
-- %% A small model on the GPU
-- Two linear layers with a ReLU between them, moved to the first GPU
-- (or left on the CPU when there is none).
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))
net:to(try_gpu())
print("layer 0 weight on", net[0].weight.device, "| layer 2 bias on", net[2].bias.device)
-- %% Reading a whole parameter: index the module, take .data
-- .data is the raw tensor without autograd history; it is still on the GPU.
net[2].weight.data
-- %% Reading one number: :item() copies it to the host
print("net[0].weight.data[0][1]:item() =", string.format("%.4f", net[0].weight.data[0][1]:item()))
-- %% Reading for inspection on the host: :cpu() returns a host copy
-- The copy is a new tensor: changing it does not change the model.
w_host = net[0].weight.data:cpu()
w_host:fill_(0)
print("w_host is on", w_host.device, "; zeroing it left the model's weight untouched:",
      not net[0].weight.data:cpu():equal(w_host))
-- %% Writing a whole parameter: copy_ from any device
-- copy_ writes into the existing GPU tensor (the source may be on the CPU);
-- the parameter stays on the GPU and keeps its identity.
net[2].weight.data:copy_(torch.tensor({{1.0, -1.0, 0.5}}))
print("copied a CPU tensor into net[2].weight; it is still on", net[2].weight.device)
-- %% The parameter now holds the new values
net[2].weight
-- %% Writing single entries and filling
net[0].weight.data[0][0] = 2.5
net[0].bias.data:fill_(0)
print("after the writes, weight[0][0] =", net[0].weight.data[0][0]:item(),
      "and bias =", net[0].bias.data:cpu())
-- %% In-place arithmetic on a parameter
-- copy_ accepts a source on another device, but arithmetic needs one device:
-- move the CPU operand with :to() first.
net[2].bias.data:add_(torch.tensor({0.25}):to(net[2].bias.device))
print("added 0.25 to the last bias in place")
-- %% The result, still on the GPU
net[2].bias.data
-- %% state_dict() holds the same GPU tensors
for name, t in pairs(net:state_dict()) do
  print(name, t.device, t:size())
end
-- %% Timing: many small reads versus one big read
-- Each `:item()` on a GPU tensor waits for the device and copies one number
-- over the bus. Reading a 100x100 weight value by value does that 10000
-- times; `:cpu()` does it once. `time.timeit` synchronises the devices
-- around each run.
big = nn.Linear(100, 100):to(try_gpu())
total_items, total_cpu = 0, 0
t_items = time.timeit(function()
  total_items = 0
  local w = big.weight.data
  for i = 0, 99 do
    for j = 0, 99 do total_items = total_items + w[i][j]:item() end
  end
end)
t_once = time.timeit(function() total_cpu = big.weight.data:cpu():sum():item() end)
print(string.format("10000 reads with :item(): %.4f s", t_items))
print(string.format("one read with :cpu():     %.4f s", t_once))
print("both read the same values:", math.abs(total_items - total_cpu) < 1e-3)
-- %% What the timing shows
-- Reading parameters one number at a time pays a fixed cost per read
-- (indexing, a wait for the device, a tiny copy); one bulk copy pays it once,
-- so the first time is far longer on any machine. On a real GPU each
-- `:item()` also crosses the PCIe bus and drains the device's queue, which
-- makes the gap wider still.
if not torch.cuda.is_available() or torch.cuda.is_emulated(0) then
  print("The parameters here are in host memory (no GPU, or an emulated one): no")
  print("bus is crossed, so the gap above is the per-read bookkeeping alone.")
else
  print("The parameters are on a real GPU: each of the 10000 reads crossed the bus.")
end
