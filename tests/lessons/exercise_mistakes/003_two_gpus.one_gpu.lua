-- expect: one after the other: compute A @ A on cuda:0 and B @ B on cuda:1
-- exercise: 003_two_gpus
function two_products(A, B)
  local B0 = B:to('cuda:0')
  return A:mm(A), B0:mm(B0):to('cuda:1')
end
