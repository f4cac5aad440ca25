-- PyTorch on the GPU and data parallelism § 6: Running the model on one GPU and on two
-- %% What §§ 2-5 built
-- The parameters, the random dataset and its loader, the model that prints
-- its sizes, wrapped in DataParallel when there is more than one GPU.
function pyprint(...)
  local parts = {}
  for i = 1, select('#', ...) do parts[i] = tostring((select(i, ...))) end
  print(table.concat(parts, " "))
end
input_size, output_size, batch_size, data_size = 5, 2, 30, 100
device = torch.device(torch.cuda.is_available() and "cuda:0" or "cpu")
RandomDataset = torch.utils.data.Dataset:extend('RandomDataset')
function RandomDataset:__init(size, length) self.len, self.data = length, torch.randn{length, size} end
function RandomDataset:__getitem(index) return self.data[index] end
function RandomDataset:__len() return self.len end
rand_loader = torch.utils.data.DataLoader(RandomDataset(input_size, data_size),
                                          {batch_size = batch_size, shuffle = true})
Model = nn.Module:extend('Model')
function Model:__init(n_in, n_out) self.fc = nn.Linear(n_in, n_out) end
function Model:forward(input)
  local output = self.fc(input)
  pyprint("\tIn Model: input size", input:size(), "output size", output:size())
  return output
end
model = Model(input_size, output_size)
if torch.cuda.device_count() > 1 then
  pyprint("Let's use", torch.cuda.device_count(), "GPUs!")
  model = nn.DataParallel(model)
end
model:to(device)
-- %% The run loop
-- Each batch goes to the device, the model is called on it, and we print the
-- sizes seen outside the model. Inside, each GPU's replica prints its share:
-- with two GPUs every batch of 30 becomes two halves of 15.
for data in rand_loader do
  local input = data:to(device)
  local output = model(input)
  pyprint("Outside: input size", input:size(), "output_size", output:size())
end
-- %% Why the last batch splits 5 + 5
-- 100 samples in batches of 30 leave 10 for the last batch. DataParallel cuts
-- a batch into chunks of ceil(rows / GPUs) rows: 30 over two GPUs is 15 + 15
-- and 10 is 5 + 5; over three GPUs 30 would be 10 + 10 + 10 and 10 would be
-- 4 + 4 + 2 (torch.chunk does the same).
for _, rows in ipairs({30, 10}) do
  for _, gpus in ipairs({2, 3}) do
    local sizes = {}
    for _, c in ipairs(torch.zeros{rows}:chunk(gpus)) do sizes[#sizes + 1] = c:size(0) end
    print(string.format("%d rows over %d GPUs -> %s", rows, gpus, table.concat(sizes, " + ")))
  end
end
-- %% What a single GPU prints
-- With one GPU there is no wrapper and the model sees each whole batch.
-- model.module is exactly that unwrapped model, so we can show it here.
single = torch.cuda.device_count() > 1 and model.module or model
for data in rand_loader do
  local input = data:to(device)
  local output = single(input)
  pyprint("Outside: input size", input:size(), "output_size", output:size())
end
-- %% In short
-- DataParallel needs no change to the model: it scatters the inputs,
-- replicates the model, runs the replicas in parallel and gathers the outputs
-- on the first device. The parameters live on cuda:0 and are copied to the
-- other GPUs on every forward pass.
if torch.cuda.device_count() < 2 then
  print("With fewer than two GPUs there is no split: the first loop printed what")
  print("one GPU (or the CPU) gives. Run with --virtual-gpus 2 to see the halves.")
elseif torch.cuda.is_virtual(0) then
  print("The GPUs here are virtual: the split is real, but the replicas share")
  print("hardware, so this run shows how the batch is cut, not a speed-up.")
else
  print("Each replica ran on its own GPU, in parallel.")
end
