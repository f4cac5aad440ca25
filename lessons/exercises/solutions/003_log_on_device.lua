-- Reference solution for exercises/003_log_on_device.lua
A = torch.rand{50, 50, device = try_gpu()} / 50
norms = {}
for step = 1, 100 do
  A = A:mm(A) + torch.eye(50, {device = A.device}) * 0.01
  norms[step] = A:norm()
end
log = torch.stack(norms):cpu()
