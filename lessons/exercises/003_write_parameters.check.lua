-- Checker for 003_write_parameters.lua
-- needs: 1 GPU
local write_and_read = need_function('write_and_read')
if not write_and_read then return end
fresh_seed()
local dev = 'cuda:' .. (gpus() - 1)
local net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1)):to(dev)
local bias, weight = net[0].bias, net[2].weight
local before, bias_before = weight.data:cpu(), bias.data:cpu()
local value = (2 * math.random(0, 4) + 1) / 4  -- never 0.5, the value of the example
local trace, ok, w_host = traced(write_and_read, net, value)
if not ok then fail('write_and_read(net, value) raised an error: ' .. first_line(w_host)) return end
local b = net[0].bias
if b ~= bias then
  fail('net[0].bias was replaced by a new tensor: write into the existing one '
       .. '(net[0].bias.data:fill_(...) or :copy_(...))')
  return
end
if not check(b.device.type ~= 'cpu' and net[2].weight.device.type ~= 'cpu',
             'the model was moved off the GPU (its parameters are on cpu now): read a copy with :cpu() instead') then
  return
end
if b.data:cpu():equal(bias_before) then
  fail('net[0].bias was not written: fill it with `value`, in place on the GPU (net[0].bias.data:fill_(value))')
  return
end
if not check(b.data:cpu():equal(torch.full({3}, value)), 'with value = ' .. value .. ', net[0].bias should be all '
             .. value .. ', it is ' .. show(b.data:cpu()) .. ' (write the argument `value`, not a constant)') then
  return
end
if w_host == nil then fail('write_and_read returns nothing yet: return a CPU copy of net[2].weight') return end
if not check(torch.is_tensor(w_host), 'write_and_read should return a tensor, not a ' .. type(w_host)) then return end
if not check(w_host.device.type == 'cpu', 'the returned weight is on ' .. tostring(w_host.device)
             .. ': it is not a host copy yet (:cpu())') then return end
if not check(w_host:equal(before), "the returned tensor should hold net[2].weight's values") then return end
if ops(trace, nil, 'cpu') > 0 or trace.h2d.calls > 0 then
  fail('the bias was written through a CPU round trip (' .. trace.d2h.calls .. ' copies to the host, '
       .. trace.h2d.calls .. ' back): write it where it lives, on the GPU (net[0].bias.data:fill_(value))')
  return
end
check(ops(trace, nil, dev) > 0, 'nothing ran on ' .. dev .. ': write the bias in place there')
check(trace.d2h.calls == 1, 'write_and_read copied from the GPU to the host ' .. trace.d2h.calls
      .. ' times: only the weight has to come back, once')
