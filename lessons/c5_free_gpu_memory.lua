-- Using GPUs in PyTorch (a course deck) § 5: Free memory per GPU, and choosing GPUs by it
-- needs: 4 gpus
-- %% Querying free memory on each GPU
-- torch.cuda.mem_get_info(i) returns the free and total bytes of device i
-- (what nvidia-smi reports as Free and Total), without parsing nvidia-smi's
-- output. This lesson is written for four GPUs; to make them differ we
-- first fill them unevenly (40, 120, 0 and 80 MiB).
blocks = {}
for dev, mib in pairs({[0] = 40, [1] = 120, [2] = 0, [3] = 80}) do
  if mib > 0 and dev < torch.cuda.device_count() then
    blocks[dev] = torch.empty{mib * 262144, device = 'cuda:' .. dev}  -- 262144 float32 = 1 MiB
  end
end
function get_gpu_memory()
  local free_mib = {}
  for i = 0, torch.cuda.device_count() - 1 do
    local free = torch.cuda.mem_get_info(i)
    free_mib[i + 1] = free // (1024 * 1024)
  end
  return free_mib
end
gpu_memory = get_gpu_memory()
print("gpu free memory: [" .. table.concat(gpu_memory, ", ") .. "]")
-- %% Ordering the GPUs by free memory
-- Most free memory first (ties keep their order). A new process started with
-- this order in CUDA_VISIBLE_DEVICES gets the emptiest GPU as its cuda:0.
order = {}
for i = 1, #gpu_memory do order[i] = i - 1 end
table.sort(order, function(p, q)
  if gpu_memory[p + 1] ~= gpu_memory[q + 1] then return gpu_memory[p + 1] > gpu_memory[q + 1] end
  return p < q
end)
visible = table.concat(order, ",")
print("CUDA_VISIBLE_DEVICES :" .. visible)
-- %% A process started with that setting
-- The variable must be set before the process first touches CUDA, so it
-- takes a new process: `torch.cuda.run_with_visible_devices` starts one.
torch.cuda.run_with_visible_devices(visible, [[
print("device_count: " .. torch.cuda.device_count())
for i = 0, torch.cuda.device_count() - 1 do
  print("  cuda:" .. i .. " is " .. torch.cuda.get_device_name(i))
end
]])
-- %% With fewer GPUs
-- The same code works for any number of GPUs: with one there is nothing to
-- choose, and each extra GPU adds one entry to the list. (Dropping `blocks`
-- frees the memory we filled the GPUs with.)
blocks = nil
print("GPUs compared here:", #gpu_memory)
