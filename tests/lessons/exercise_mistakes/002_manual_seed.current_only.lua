-- expect: torch.cuda.manual_seed seeds only the current GPU (cuda:0)
-- exercise: 002_manual_seed
function noise_on(device, seed)
  torch.cuda.manual_seed(seed)
  return torch.randn(5, {device = device})
end
