-- exercise: 003_write_parameters
-- Write and read parameters on the GPU (lesson d6)
-- Make write_and_read(net, value) set every entry of the first layer's bias
-- to `value`, in place and on the GPU (the bias must stay the same
-- Parameter, and the model must stay on the GPU), and return a CPU copy of
-- the last layer's weight. The checker calls it on fresh models.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 2)

function write_and_read(net, value)
  -- TODO: write `value` into every entry of net[0].bias (in place, on the GPU)

  -- TODO: return a CPU copy of net[2].weight's values
  return TODO
end

net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1)):to(try_gpu())
w_host = write_and_read(net, 0.5)
print(net[0].bias)
print(w_host)
