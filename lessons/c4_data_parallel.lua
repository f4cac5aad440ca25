-- Using GPUs in PyTorch (a course deck) § 4: DataParallel: scatter, compute in parallel, gather
-- needs: 4 gpus
-- %% The wrapper and its arguments
-- nn.DataParallel(module, {device_ids=, output_device=, dim=}) wraps a model.
-- On each call it scatters the batch along dim (0 by default) over
-- device_ids (default: every visible GPU), runs one replica of the model per
-- GPU in parallel, and gathers the outputs on output_device (default: the
-- first of device_ids). This lesson is written for four GPUs.
print("visible GPUs:", torch.cuda.device_count())
-- %% A model that reports its batch size
-- Three bias-free linear layers with ReLU; forward prints how many rows it got.
FooNet = nn.Module:extend('FooNet')
function FooNet:__init(neural_num, layers)
  self.linears = nn.Sequential()
  for l = 0, layers - 1 do
    self.linears:add_module(tostring(l), nn.Linear(neural_num, neural_num, false))
  end
end
function FooNet:forward(x)
  print("batch size in forward: " .. x:size(0))
  for _, layer in ipairs(self.linears:children()) do
    x = torch.relu(layer(x))
  end
  return x
end
inputs = torch.randn{16, 3}:to('cuda')
print("inputs:", inputs:size(), "on", inputs.device)
-- %% On two GPUs: 8 rows each
if torch.cuda.device_count() >= 2 then
  net = nn.DataParallel(FooNet(3, 3), {device_ids = {0, 1}}):to('cuda')
  outputs = net(inputs)
  print("model outputs.size: " .. tostring(outputs:size()))
else
  print("only one GPU here: the plain model sees all 16 rows (with two: 8 + 8)")
  outputs = FooNet(3, 3):to('cuda')(inputs)
end
-- %% On four GPUs: 4 rows each
-- Without device_ids DataParallel uses every visible GPU.
if torch.cuda.device_count() >= 4 then
  net = nn.DataParallel(FooNet(3, 3)):to('cuda')
  outputs = net(inputs)
  print("model outputs.size: " .. tostring(outputs:size()))
else
  print("fewer than 4 GPUs here: with 4 the batch would split 4 + 4 + 4 + 4")
end
-- %% Where the output is gathered
outputs.device
-- %% What changes with fewer GPUs
-- With one GPU there is nothing to split: the single replica sees all 16
-- rows. With two, each sees 8; with four, 4. The output is always one
-- [16, 3] tensor on the output device.
if torch.cuda.device_count() >= 2 and torch.cuda.is_virtual(0) then
  print("The GPUs here are virtual, so the split is shown faithfully, but the")
  print("replicas share hardware: no speed-up is to be expected.")
end
