-- expect: gave the same numbers: seed with the argument
-- exercise: 002_manual_seed
function noise_on(device, seed)
  torch.manual_seed(1234)
  return torch.randn(5, {device = device})
end
