-- Exercise (d2l 5.6.5, exercise 3): keep a training log on the GPU.
-- The loop below records the Frobenius norm of every product. Calling
-- :item() each step copies one number to the host and waits for the GPU.
-- Keep the norms on the GPU instead, and copy them to the host ONCE at the
-- end as one tensor `log` of 100 values.
-- Run:  gpulab check THIS_FILE --virtual-gpus 2
A = torch.rand{50, 50, device = try_gpu()} / 50
norms = {}
for step = 1, 100 do
  A = A:mm(A) + torch.eye(50, {device = A.device}) * 0.01
  -- TODO: store the norm without copying it to the host
  norms[step] = A:norm():item()
end
-- TODO: one tensor on the CPU holding all 100 norms (torch.stack, then :cpu())
log = ...
