-- PyTorch on the GPU and data parallelism § 4: A model that prints its sizes
-- %% The model
-- One linear layer from 5 features to 2. `forward` prints the sizes of its
-- input and output, so later we can watch what each copy of the model
-- receives when the batch is split over GPUs. `pyprint` prints as Python's
-- `print` does, with one space between its arguments (Lua's `print` puts a
-- tab), so the lines read as in PyTorch's example.
Model = nn.Module:extend('Model')
function Model:__init(input_size, output_size)
  self.fc = nn.Linear(input_size, output_size)
end
function Model:forward(input)
  local output = self.fc(input)
  pyprint("\tIn Model: input size", input:size(), "output size", output:size())
  return output
end
model = Model(5, 2)
print(model)
-- %% Calling it on one batch
-- Calling the module runs `forward`; the batch size (dimension 0) goes
-- through unchanged, the feature size goes from 5 to 2.
out = model(torch.randn{30, 5})
-- %% The output's size
out:size()
