-- expect: needs 2 GPUs and 1 is visible here
-- args: --virtual-gpus 1
-- exercise: 003_two_gpus
function two_products(A, B) return A:mm(A), B:mm(B) end
