-- exercise: 003_log_on_device
-- Keep a log on the GPU, copy it once (lesson d7)
-- norm_log(A, steps) multiplies A by itself `steps` times and logs the
-- Frobenius norm after each step. As written, every :item() copies one
-- number to the host and makes the CPU wait for the GPU. Rewrite it so the
-- products and the norms stay on A's GPU, and return the log as ONE CPU
-- tensor of `steps` values, copied to the host once at the end. The checker
-- calls it on fresh matrices and counts the host's waits.
-- Check:  gpulab check THIS_FILE   (no GPU here? add --virtual-gpus 2)

function norm_log(A, steps)
  local norms = {}
  for step = 1, steps do
    A = A:mm(A) + torch.eye(A:size(0), {device = A.device}) * 0.01
    norms[step] = A:norm():item()   -- TODO: keep the norm on the GPU
  end
  return torch.tensor(norms)        -- TODO: one copy to the host, at the end
end

A = torch.rand{50, 50, device = try_gpu()} / 50
print(norm_log(A, 100)['97:'])   -- the last three norms
