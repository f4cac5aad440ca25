-- exercise: 001_data_parallel
-- Split each batch over every GPU (lessons b4, b5, c4)
-- When more than one GPU is visible, wrap the model in nn.DataParallel; then
-- put it on `device`. The checker feeds it a batch of 30 and watches the split.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 2)
device = torch.device(torch.cuda.is_available() and 'cuda:0' or 'cpu')
Model = nn.Module:extend('Model')
function Model:__init(input_size, output_size)
  self.fc = nn.Linear(input_size, output_size)
end
function Model:forward(input)
  seen_batch_sizes[#seen_batch_sizes + 1] = input:size(0)
  return self.fc(input)
end
seen_batch_sizes = {}
model = Model(5, 2)

if torch.cuda.device_count() > 1 then
  -- TODO: wrap the model so every batch is split across the GPUs
  model = ...
end
-- TODO: move the (possibly wrapped) model to `device` (write the line below)

