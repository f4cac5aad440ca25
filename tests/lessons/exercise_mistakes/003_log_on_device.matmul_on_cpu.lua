-- expect: the matrix products ran on the CPU
-- exercise: 003_log_on_device
function norm_log(A, steps)
  local dev = A.device
  A = A:cpu()
  local norms = {}
  for step = 1, steps do
    A = A:mm(A) + torch.eye(A:size(0)) * 0.01
    norms[step] = A:norm():to(dev)
  end
  return torch.stack(norms):cpu()
end
