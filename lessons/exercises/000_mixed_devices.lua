-- exercise: 000_mixed_devices
-- Add a CPU tensor to a GPU tensor, on the GPU (lesson a4)
-- y lives on a GPU and x on the CPU, so `y + x` raises "Expected all tensors
-- to be on the same device". Make add_on_gpu return y + x computed ON y's
-- GPU, moving only what has to move. The checker calls add_on_gpu on fresh
-- random tensors (on every GPU it sees) and watches where the addition runs.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 2)

function add_on_gpu(x, y)   -- x on the CPU, y on a GPU
  -- TODO: return y + (a copy of x on y's device)
  return TODO
end

x = torch.tensor({1, 2, 3})
y = torch.tensor({1, 4, 9}, {device = 'cuda:0'})
print(add_on_gpu(x, y))
