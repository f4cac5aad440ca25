-- expect: logged norms are wrong
-- exercise: 003_log_on_device
function norm_log(A, steps)
  local log = torch.zeros(steps, {device = A.device})
  for step = 1, steps do
    A = A:mm(A) + torch.eye(A:size(0), {device = A.device}) * 0.01
  end
  log[steps - 1] = A:norm()
  return log:cpu()
end
