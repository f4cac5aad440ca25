-- Exercise (d2l 5.6.5, exercise 2): write model parameters on the GPU.
-- The model lives on the GPU. Set every entry of the first layer's bias to
-- 0.5 and read the last layer's weight back into a host (CPU) tensor.
-- The model must stay on the GPU, and its bias must stay the same Parameter.
-- Run:  gpulab check THIS_FILE --virtual-gpus 2
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1)):to(try_gpu())
first_bias = net[0].bias   -- the checker makes sure this very tensor changed

-- TODO: write 0.5 into every entry of net[0].bias (in place, on the GPU)

-- TODO: a CPU copy of net[2].weight's values
w_host = ...
