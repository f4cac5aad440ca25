-- PyTorch on the GPU and data parallelism § 6: Running the model on one GPU and on two
-- needs: 2 gpus
-- continues: b3_random_dataset b5_data_parallel
-- %% The run loop
-- §§ 2-5 built the sizes, the random dataset and its loader `rand_loader`,
-- and the `model` that prints its sizes, wrapped in DataParallel when there
-- is more than one GPU and moved to `device`. Each batch goes to the device,
-- the model is called on it, and we print the sizes seen outside the model.
-- Inside, each GPU's replica prints its share: with two GPUs every batch of
-- 30 becomes two halves of 15.
for data in rand_loader do
  local input = data:to(device)
  local output = model(input)
  pyprint("Outside: input size", input:size(), "output_size", output:size())
end
-- %% Why the last batch splits 5 + 5
-- 100 samples in batches of 30 leave 10 for the last batch. DataParallel cuts
-- a batch into chunks of ceil(rows / GPUs) rows: 30 over two GPUs is 15 + 15
-- and 10 is 5 + 5; over three GPUs 30 would be 10 + 10 + 10 and 10 would be
-- 4 + 4 + 2 (`torch.chunk` does the same).
for _, rows in ipairs({30, 10}) do
  for _, gpus in ipairs({2, 3}) do
    local sizes = {}
    for _, c in ipairs(torch.zeros{rows}:chunk(gpus)) do sizes[#sizes + 1] = c:size(0) end
    print(string.format("%d rows over %d GPUs -> %s", rows, gpus, table.concat(sizes, " + ")))
  end
end
-- %% What a single GPU prints
-- With one GPU there is no wrapper and the model sees each whole batch.
-- `model.module` is exactly that unwrapped model, so we can show it here.
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
