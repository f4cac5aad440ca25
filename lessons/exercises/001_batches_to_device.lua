-- exercise: 001_batches_to_device
-- Feed DataLoader batches to the GPU (lessons b1, b2, b3, b6)
-- The data set lives in host memory, as it would on disk; the model is on
-- `device`. Make run_batches(model, loader, device) run the model on every
-- batch, moving each batch to `device` first, and return the number of rows
-- the model saw. Results stay on the GPU (no copies back to the host).
-- The checker calls it with fresh data sets and models.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 2)

function run_batches(model, loader, device)
  local rows = 0
  for batch in loader do
    -- TODO: move the batch to `device`, run the model, count output:size(0)
  end
  return rows
end

device = try_gpu()
data = torch.utils.data.TensorDataset(torch.randn{100, 5})
loader = torch.utils.data.DataLoader(data, {batch_size = 30})
model = nn.Linear(5, 2):to(device)
print(run_batches(model, loader, device))
