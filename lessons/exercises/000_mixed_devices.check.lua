-- Checker for 000_mixed_devices.lua
-- needs: 1 GPU
local add_on_gpu = need_function('add_on_gpu')
if not add_on_gpu then return end
fresh_seed()
for d = 0, gpus() - 1 do
  local dev = 'cuda:' .. d
  local x = torch.randint(0, 50, {5})
  local y = torch.randint(50, 100, {5}):to(dev)
  local trace, ok, z = traced(add_on_gpu, x, y)
  if not ok then
    if tostring(z):find('same device') then
      fail('add_on_gpu(x, y) with y on ' .. dev .. ' raised "' .. first_line(z)
           .. '": move x to y.device (not to a fixed device such as \'cuda\')')
    else
      fail('add_on_gpu(x, y) raised an error: ' .. first_line(z))
    end
    return
  end
  if z == nil then fail('add_on_gpu returns nothing yet: replace TODO with y + x:to(y.device)') return end
  if not check(torch.is_tensor(z), 'add_on_gpu should return a tensor, it returned a ' .. type(z)) then return end
  local expected = y:cpu() + x
  if not check(z:cpu():equal(expected),
               'add_on_gpu(x, y) gave ' .. show(z:cpu()) .. ' for x = ' .. show(x) .. ', y = ' .. show(y:cpu())
               .. ': compute y + x from the arguments (a result written into the code fits only one input)') then
    return
  end
  if tostring(z.device) ~= dev then
    if ops(trace, 'add', dev) > 0 then
      fail('the sum was computed on ' .. dev .. ' and then copied to ' .. tostring(z.device)
           .. ': return it where it was computed, on y\'s device')
    else
      fail('the sum is on ' .. tostring(z.device) .. ', y was on ' .. dev
           .. ': you moved y to the CPU instead of x to the GPU')
    end
    return
  end
  if not check(z.dtype == expected.dtype, 'the sum is ' .. tostring(z.dtype) .. ' where y + x gives '
               .. tostring(expected.dtype) .. ': move x without changing its dtype, x:to(y.device)') then return end
  if ops(trace, 'add', 'cpu') > 0 then
    fail('the addition ran on the CPU (y was copied to the host, and the sum back): '
         .. 'move x to y.device and add there, where y already is')
    return
  end
  if not check(ops(trace, 'add', dev) > 0, 'no addition ran on ' .. dev .. ': add y and x there') then return end
  if not check(trace.d2h.calls == 0, 'add_on_gpu copied ' .. trace.d2h.bytes .. ' bytes from the GPU to the host: '
               .. 'only x has to move, from the host to the GPU') then return end
end
