-- expect: the host waited for the GPU
-- exercise: 003_log_on_device
function norm_log(A, steps)
  local norms = {}
  for step = 1, steps do
    A = A:mm(A) + torch.eye(A:size(0), {device = A.device}) * 0.01
    norms[step] = torch.tensor(A:norm():item(), {device = A.device})
  end
  return torch.stack(norms):cpu()
end
