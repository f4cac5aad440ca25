-- PyTorch on the GPU and data parallelism § 3: A random dataset and its DataLoader
-- continues: b2_parameters
-- %% A dataset of random numbers
-- The sizes come from § 2 (`input_size` 5, `batch_size` 30, `data_size` 100).
-- A Dataset says how many samples it has (`__len`) and returns sample i
-- (`__getitem`, counting from 0). This one holds a fixed random matrix with
-- one row per sample.
RandomDataset = torch.utils.data.Dataset:extend('RandomDataset')
function RandomDataset:__init(size, length)
  self.len = length
  self.data = torch.randn{length, size}
end
function RandomDataset:__getitem(index) return self.data[index] end
function RandomDataset:__len() return self.len end
dataset = RandomDataset(input_size, data_size)
print("samples:", #dataset, "| one sample:", dataset[0]:size())
-- %% Batching it
-- The DataLoader groups samples into batches of `batch_size` (stacked along a
-- new dimension 0). With `shuffle = true` it visits them in a new random
-- order every epoch, which is what training wants.
rand_loader = torch.utils.data.DataLoader(dataset, {batch_size = batch_size, shuffle = true})
print("batches per epoch:", #rand_loader)
-- %% One epoch
-- Three full batches of 30, then the 10 samples left over.
for batch in rand_loader do print(batch:size()) end
-- %% Shuffled: two epochs see the samples in different orders
-- The sum of a batch tells the batches apart without printing all of them.
function batch_sums()
  local sums = {}
  for batch in rand_loader do sums[#sums + 1] = string.format("%.3f", batch:sum():item()) end
  return table.concat(sums, "  ")
end
print("epoch 1 batch sums:", batch_sums())
print("epoch 2 batch sums:", batch_sums())
