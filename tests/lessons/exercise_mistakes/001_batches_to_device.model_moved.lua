-- expect: move the batches to the model, not the model to the batches
-- exercise: 001_batches_to_device
function run_batches(model, loader, device)
  local rows = 0
  model:cpu()
  for batch in loader do rows = rows + model(batch[1]):size(0) end
  return rows
end
