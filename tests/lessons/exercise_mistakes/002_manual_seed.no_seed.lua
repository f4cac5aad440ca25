-- expect: gave different numbers
-- exercise: 002_manual_seed
function noise_on(device, seed)
  return torch.randn(5, {device = device})
end
