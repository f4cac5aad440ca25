-- Checker for 003_copy_between_gpus.lua
-- needs: 2 GPUs
local add_on_second = need_function('add_on_second')
if not add_on_second then return end
fresh_seed()
local X = torch.randn{3, 4, device = 'cuda:0'}
local Y = torch.randn{3, 4, device = 'cuda:1'}
local trace, ok, Z = traced(add_on_second, X, Y)
if not ok then
  if tostring(Z):find('same device') then
    fail('add_on_second raised "' .. first_line(Z) .. '": copy X to Y\'s device first (X:to(Y.device))')
  else
    fail('add_on_second(X, Y) raised an error: ' .. first_line(Z))
  end
  return
end
if Z == nil then fail('add_on_second returns nothing yet: replace TODO with the sum on Y\'s device') return end
if not check(torch.is_tensor(Z), 'add_on_second should return a tensor') then return end
if not check(Z:cpu():allclose(X:cpu() + Y:cpu(), 1e-5, 1e-6),
             'add_on_second(X, Y) should be X + Y, computed from its arguments') then return end
if not check(tostring(Z.device) == 'cuda:1', 'the sum is on ' .. tostring(Z.device)
             .. ': compute it on Y\'s device, cuda:1 (copy X there, not Y to X)') then return end
if trace.d2h.calls > 0 or trace.h2d.calls > 0 then
  fail('X went through the host (' .. trace.d2h.calls .. ' copies to the CPU, ' .. trace.h2d.calls
       .. ' back): copy it GPU to GPU with X:to(Y.device) or X:cuda(1)')
  return
end
check(ops(trace, 'add', 'cuda:1') > 0, 'the addition should run on cuda:1')
check(trace.d2d.calls == 1, 'X should be copied once, GPU to GPU; it was copied ' .. trace.d2d.calls .. ' times')
