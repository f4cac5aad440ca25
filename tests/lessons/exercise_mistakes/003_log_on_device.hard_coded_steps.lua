-- expect: should return
-- exercise: 003_log_on_device
function norm_log(A, steps)
  local norms = {}
  for step = 1, 100 do
    A = A:mm(A) + torch.eye(A:size(0), {device = A.device}) * 0.01
    norms[step] = A:norm()
  end
  return torch.stack(norms):cpu()
end
