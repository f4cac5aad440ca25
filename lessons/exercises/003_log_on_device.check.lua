-- Checker for 003_log_on_device.lua
-- needs: 1 GPU
local norm_log = need_function('norm_log')
if not norm_log then return end
fresh_seed()
local steps = 12 + math.random(0, 8)  -- not 100: the log must follow its argument
local dev = 'cuda:' .. (gpus() - 1)   -- the last GPU: the work must follow A
local A = torch.rand{20, 20, device = dev} / 20
-- The expected log, computed here on the CPU.
local expected, B = {}, A:cpu()
for step = 1, steps do
  B = B:mm(B) + torch.eye(20) * 0.01
  expected[step] = B:norm()
end
expected = torch.stack(expected)
local trace, ok, log = traced(norm_log, A, steps)
if not ok then fail('norm_log(A, steps) raised an error: ' .. first_line(log)) return end
if log == nil then fail('norm_log returns nothing: return the log as one CPU tensor (torch.stack(norms):cpu())') return end
if type(log) == 'table' then
  fail('norm_log returned a Lua table: return ONE tensor (torch.stack(norms)), copied to the host with :cpu()')
  return
end
if not check(torch.is_tensor(log), 'norm_log should return a tensor, not a ' .. type(log)) then return end
if not check(log.device.type == 'cpu', 'the log is on ' .. tostring(log.device)
             .. ': copy it to the host once at the end (:cpu())') then return end
if not check(log:dim() == 1 and log:numel() == steps, 'norm_log(A, ' .. steps .. ') should return '
             .. steps .. ' values, one per step; it returned shape ' .. tostring(log.shape)) then return end
local got = log:to(torch.float32)
local close = got:sub(expected):abs():le(expected:abs() * 1e-3 + 1e-5)
if not close:all():item() then
  local wrong = 0
  for i = 0, steps - 1 do if not close[i]:item() then wrong = wrong + 1 end end
  fail(wrong .. ' of the ' .. steps .. ' logged norms are wrong (the first is ' .. string.format('%.4f', got[0]:item())
       .. ', expected ' .. string.format('%.4f', expected[0]:item()) .. '): log the norm after EVERY step')
  return
end
if ops(trace, 'mm', 'cpu') > 0 then
  fail('the matrix products ran on the CPU (' .. ops(trace, 'mm', 'cpu') .. ' of them): keep A on its GPU and '
       .. 'multiply there; only the finished log should reach the host')
  return
end
local items = syncs(trace, 'item') + syncs(trace, 'tolist')
if items > 0 then
  fail('the host waited for the GPU ' .. items .. ' times in ' .. steps .. ' steps to read single values '
       .. '(:item(), or torch.tensor of a table of GPU tensors, which reads each one): '
       .. 'each read copies a number to the host and stops the GPU queue. Keep A:norm() as a tensor on the GPU '
       .. 'and copy the whole log once at the end (torch.stack(norms):cpu())')
  return
end
if not check(ops(trace, 'mm', dev) >= steps, 'the products should run on A\'s device, ' .. dev) then return end
check(trace.d2h.calls == 1 and syncs(trace) == 1,
      'norm_log copied from the GPU to the host ' .. trace.d2h.calls .. ' times (waiting ' .. syncs(trace)
      .. ' times): copy the log once, at the end')
check(trace.h2d.calls == 0, 'norm_log copied data from the host to the GPU ' .. trace.h2d.calls
      .. ' times: everything it needs is on the GPU already (create helpers such as torch.eye with device = A.device)')
