-- expect: the products ran on the CPU
-- exercise: 003_two_gpus
function two_products(A, B)
  return A:cpu():mm(A:cpu()):to(A.device), B:cpu():mm(B:cpu()):to(B.device)
end
