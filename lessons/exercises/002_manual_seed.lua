-- exercise: 002_manual_seed
-- Reproducible random numbers on any GPU (lessons b1, c3)
-- Make noise_on(device, seed) return 5 standard-normal numbers drawn ON
-- `device` (a GPU, maybe not the current one), the same numbers every time
-- it is called with the same seed, whatever ran in between. The checker
-- calls it on each GPU with fresh seeds.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 2)

function noise_on(device, seed)
  -- TODO: seed the generator that `device` draws from, then draw there
  return TODO
end

print(noise_on(try_gpu(), 42))
print(noise_on(try_gpu(), 42))
