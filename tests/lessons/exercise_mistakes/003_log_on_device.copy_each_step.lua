-- expect: copy the log once, at the end
-- exercise: 003_log_on_device
function norm_log(A, steps)
  local norms = {}
  for step = 1, steps do
    A = A:mm(A) + torch.eye(A:size(0), {device = A.device}) * 0.01
    norms[step] = A:norm():cpu()
  end
  return torch.stack(norms)
end
