-- PyTorch on the GPU and data parallelism § 5: Wrapping the model in DataParallel
-- needs: 2 gpus
-- continues: b2_parameters b4_model
-- %% The model of § 4, on the device of § 2
model = Model(input_size, output_size)
print("a fresh Model(" .. input_size .. ", " .. output_size .. "); device:", device)
-- %% Wrap it only when there is more than one GPU
-- A model computes on one device unless told otherwise. `nn.DataParallel`
-- keeps the original model as `model.module`; on every call it cuts the batch
-- along dimension 0 into one chunk per GPU, runs a replica of the model on
-- each chunk in parallel, and gathers the outputs on the first GPU.
-- With one GPU (or none) there is nothing to split, so the model stays as it is.
if torch.cuda.device_count() > 1 then
  pyprint("Let's use", torch.cuda.device_count(), "GPUs!")
  model = nn.DataParallel(model)
else
  print("only one device: the model is used as it is")
end
-- %% Moving it to the device
-- For a module, `:to()` moves the parameters in place and returns the module
-- itself (for a tensor it returns a new tensor), so the result need not be kept.
print("model:to(device) returns the same module:", model:to(device) == model)
print("the parameters are on", model:parameters()[1].device)
-- %% The wrapped model
model
-- %% Which GPUs it will use
-- By default every visible GPU; `device_ids = {...}` picks some, and the
-- outputs are gathered on `output_device` (the first of `device_ids` unless given).
if torch.cuda.device_count() > 1 then
  print("device_ids:", table.concat(model.device_ids, ", "), "| output_device:", model.output_device)
end
