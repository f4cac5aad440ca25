-- exercise: 003_two_gpus
-- Two matrix products on two GPUs at once (lesson d8)
-- A lives on cuda:0 and B on cuda:1. Make two_products(A, B) return A @ A
-- and B @ B, each computed on the GPU that already holds its matrix, so the
-- two GPUs can work at the same time and no matrix is copied anywhere.
-- The checker calls it on fresh matrices and watches where each product runs.
-- Check:  gpulab check THIS_FILE   (no GPUs here? add --virtual-gpus 2)

function two_products(A, B)
  -- TODO: both products, each on its own matrix's GPU
  return TODO, TODO
end

A = torch.randn{100, 100, device = 'cuda:0'}
B = torch.randn{100, 100, device = 'cuda:1'}
C, D = two_products(A, B)
print(C.device, D.device)
