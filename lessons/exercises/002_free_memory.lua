-- exercise: 002_free_memory
-- Order the GPUs by free memory (lessons a2, c5)
-- On a shared machine some GPUs are busy. Make gpus_by_free_memory() return
-- the GPU indices (0, 1, ...) ordered by free memory, most free first, as
-- torch.cuda.mem_get_info(i) reports it now (it returns free, total bytes).
-- The checker fills some GPUs and calls it again.
-- Check:  gpulab check THIS_FILE   (no GPUs here? add --virtual-gpus 2)

function gpus_by_free_memory()
  local order = {}
  for i = 0, torch.cuda.device_count() - 1 do order[#order + 1] = i end
  -- TODO: sort `order` by free memory, most free first (table.sort with a comparison)
  return order
end

for _, i in ipairs(gpus_by_free_memory()) do
  local free, total = torch.cuda.mem_get_info(i)
  print(string.format('cuda:%d  %.0f MiB free of %.0f MiB', i, free / 2^20, total / 2^20))
end
