-- exercise: 003_copy_between_gpus
-- Add tensors that live on two GPUs (lesson d2)
-- X is on cuda:0 and Y on cuda:1, so X + Y fails. Make add_on_second(X, Y)
-- return X + Y computed on Y's GPU, copying X there directly (GPU to GPU),
-- never through the host. The checker calls it on fresh tensors and counts
-- the copies in each direction.
-- Check:  gpulab check THIS_FILE   (no GPUs here? add --virtual-gpus 2)

function add_on_second(X, Y)
  -- TODO: a copy of X on Y's device, then the sum there
  return TODO
end

X = torch.ones{2, 3, device = 'cuda:0'}
Y = torch.rand{2, 3, device = 'cuda:1'}
print(add_on_second(X, Y))
