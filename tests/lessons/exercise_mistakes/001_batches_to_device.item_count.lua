-- expect: count rows with output:size(0), which needs no copy
-- exercise: 001_batches_to_device
function run_batches(model, loader, device)
  local rows = 0
  for batch in loader do
    local out = model(batch[1]:to(device))
    rows = rows + out:sum(1):ne(12345):sum():item()
  end
  return rows
end
