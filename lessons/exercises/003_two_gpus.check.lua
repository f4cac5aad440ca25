-- Checker for 003_two_gpus.lua
-- needs: 2 GPUs
local two_products = need_function('two_products')
if not two_products then return end
fresh_seed()
local A = torch.randn{16, 16, device = 'cuda:0'}
local B = torch.randn{16, 16, device = 'cuda:1'}
local trace, ok, C, D = traced(two_products, A, B)
if not ok then fail('two_products(A, B) raised an error: ' .. first_line(C)) return end
if C == nil or D == nil then
  fail('two_products should return two tensors, A @ A and B @ B (replace both TODOs)')
  return
end
if not check(torch.is_tensor(C) and torch.is_tensor(D), 'two_products should return two tensors') then return end
local ok_c = C:cpu():allclose(A:cpu():mm(A:cpu()), 1e-4, 1e-4)
local ok_d = D:cpu():allclose(B:cpu():mm(B:cpu()), 1e-4, 1e-4)
if not check(ok_c and ok_d, 'the products are wrong: the first result should be A @ A, the second B @ B '
             .. '(computed from the arguments)') then return end
if ops(trace, 'mm', 'cpu') > 0 then
  fail('the products ran on the CPU: compute each one where its matrix already is')
  return
end
if ops(trace, 'mm', 'cuda:0') == 0 or ops(trace, 'mm', 'cuda:1') == 0 then
  local only = ops(trace, 'mm', 'cuda:0') > 0 and 'cuda:0' or 'cuda:1'
  fail('both products ran on ' .. only .. ', one after the other: compute A @ A on cuda:0 and B @ B on cuda:1, '
       .. 'so the two GPUs work at the same time')
  return
end
check(trace.h2d.calls + trace.d2h.calls + trace.d2d.calls == 0,
      'two_products copied data (' .. (trace.h2d.calls + trace.d2h.calls + trace.d2d.calls)
      .. ' copies): each matrix is already on the GPU that should use it; move nothing')
check(tostring(C.device) == 'cuda:0' and tostring(D.device) == 'cuda:1',
      'the results should stay where they were computed (C on cuda:0, D on cuda:1), not be gathered')
