-- expect: move nothing
-- exercise: 003_two_gpus
function two_products(A, B)
  return A:mm(A), B:mm(B):to('cuda:0')
end
