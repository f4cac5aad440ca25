-- exercise: 003_two_gpus
-- Reference solution: each product is queued on its own matrix's device.
function two_products(A, B)
  return A:mm(A), B:mm(B)
end

A = torch.randn{100, 100, device = 'cuda:0'}
B = torch.randn{100, 100, device = 'cuda:1'}
C, D = two_products(A, B)
print(C.device, D.device)
