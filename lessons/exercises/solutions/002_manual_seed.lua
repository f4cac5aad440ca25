-- exercise: 002_manual_seed
-- Reference solution: manual_seed_all seeds every GPU (manual_seed alone
-- seeds only the current one), and device= draws on the GPU itself.
function noise_on(device, seed)
  torch.cuda.manual_seed_all(seed)
  return torch.randn(5, {device = device})
end

print(noise_on(try_gpu(), 42))
print(noise_on(try_gpu(), 42))
