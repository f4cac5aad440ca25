-- Data parallelism: splitting every batch across GPUs with nn.DataParallel
-- %% Picking the device
-- The first GPU when there is one, the CPU otherwise.
device = torch.device(torch.cuda.is_available() and "cuda:0" or "cpu")
print(device)
-- %% Printing the way Python does
-- Python's print puts one space between its arguments, Lua's print a tab.
-- To get the tutorial's lines character for character, this helper joins
-- with spaces.
function pyprint(...)
  local parts = {}
  for i = 1, select('#', ...) do parts[i] = tostring((select(i, ...))) end
  print(table.concat(parts, " "))
end
pyprint("input size", torch.Size({30, 5}))
-- %% Parameters
input_size, output_size = 5, 2
batch_size, data_size = 30, 100
print("features in:", input_size, "features out:", output_size)
print("batch size:", batch_size, "samples:", data_size)
-- %% A dataset of random numbers
-- A Dataset says how many samples it has (__len) and returns sample i
-- (__getitem, counting from 0). The DataLoader groups samples into batches
-- and, with shuffle=true, visits them in a new random order every epoch.
RandomDataset = torch.utils.data.Dataset:extend('RandomDataset')
function RandomDataset:__init(size, length)
  self.len = length
  self.data = torch.randn{length, size}
end
function RandomDataset:__getitem(index) return self.data[index] end
function RandomDataset:__len() return self.len end
rand_loader = torch.utils.data.DataLoader(RandomDataset(input_size, data_size),
                                          {batch_size = batch_size, shuffle = true})
print("batches per epoch:", #rand_loader, "(three of 30 and a last one of 10)")
-- %% A model that reports what it sees
-- One linear layer. forward prints the sizes of its input and output, so we can
-- watch what each copy of the model receives.
Model = nn.Module:extend('Model')
function Model:__init(input_size, output_size)
  self.fc = nn.Linear(input_size, output_size)
end
function Model:forward(input)
  local output = self.fc(input)
  pyprint("\tIn Model: input size", input:size(), "output size", output:size())
  return output
end
model = Model(input_size, output_size)
print(model)
-- %% Wrapping the model when there is more than one GPU
-- nn.DataParallel keeps the original model as model.module. On every call it
-- cuts the batch along dimension 0 into one chunk per GPU, runs a replica of
-- the model on each chunk in parallel and gathers the outputs on cuda:0.
if torch.cuda.device_count() > 1 then
  pyprint("Let's use", torch.cuda.device_count(), "GPUs!")
  model = nn.DataParallel(model)
else
  print("only one device: the model is used as it is")
end
model:to(device)
print(model)
-- %% Running the model
-- The data goes to the device, the model splits it. Inside the model every
-- replica sees half a batch (15 rows); outside we get the whole batch back.
for data in rand_loader do
  local input = data:to(device)
  local output = model(input)
  pyprint("Outside: input size", input:size(), "output_size", output:size())
end
-- %% Why the last batch splits 5 + 5
print("100 samples in batches of 30 leave 100 - 3*30 = 10 for the last batch.")
print("DataParallel divides each batch as evenly as it can over the GPUs it uses:")
print("30 rows become 15 + 15 on two GPUs, and the last 10 rows become 5 + 5.")
print("With three GPUs 30 would become 10 + 10 + 10, and 10 would become 4 + 4 + 2.")
-- %% What one GPU would print
-- With a single GPU there is no wrapper and the model sees each whole batch.
-- model.module is exactly that unwrapped model, so we can show it here.
print("With one GPU (no DataParallel) the same loop prints:")
for data in rand_loader do
  local input = data:to(device)
  local output = model.module(input)
  pyprint("Outside: input size", input:size(), "output_size", output:size())
end
-- %% In short
print("nn.DataParallel needs no change to the model: it scatters the inputs,")
print("replicates the model, runs the replicas in parallel and gathers the")
print("outputs on the first device. The parameters live on cuda:0 (model:to(device))")
print("and are copied to the other GPUs on every forward pass.")
if torch.cuda.is_virtual(0) then
  print("Here the GPUs are virtual, so the split is real but the speed-up is not:")
  print("every replica runs on the same host CPU.")
end
