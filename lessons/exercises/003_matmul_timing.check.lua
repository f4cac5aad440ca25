-- Checker for 003_matmul_timing.lua: time.perf_counter is wrapped so that
-- each clock reading notes how many products ran and how often the host
-- had waited for the GPU by then.
-- needs: 1 GPU
local time_matmul = need_function('time_matmul')
if not time_matmul then return end
local real_clock = time.perf_counter
local readings, timed_device
time.perf_counter = function()
  local t = trace_peek()
  local now = real_clock()
  readings[#readings + 1] = {mm = ops(t, 'mm'), waits = syncs(t, nil, timed_device),
                             other_waits = syncs(t) - syncs(t, nil, timed_device), random = ops(t, 'random'), at = now}
  return now
end
local function run(device)
  readings, timed_device = {}, tostring(device)
  local n = 32 + math.random(0, 32)
  local trace, ok, seconds = traced(time_matmul, device, n)
  return trace, ok, seconds, readings
end
local problem
for _, device in ipairs({torch.device('cuda:' .. (gpus() - 1)), torch.device('cpu')}) do
  local trace, ok, seconds, r = run(device)
  local where = tostring(device)
  if not ok then problem = 'time_matmul(' .. where .. ', n) raised an error: ' .. first_line(seconds)
  elseif type(seconds) ~= 'number' then problem = 'time_matmul should return the seconds (a number), not a ' .. type(seconds)
  elseif ops(trace, 'mm', device) == 0 then
    problem = 'no matrix product ran on ' .. where .. ': create A and B with device = device and multiply them there'
  elseif ops(trace, 'mm', device.type == 'cpu' and 'cuda' or 'cpu') > 0 then
    problem = 'with device = ' .. where .. ' a product ran somewhere else: keep the matrices on `device`'
  elseif device.type == 'cuda' and ops(trace, 'random', 'cpu') > 0 then
    problem = 'A and B were drawn on the CPU and then copied to ' .. where .. ': create them there, '
              .. 'torch.randn(n, n, {device = device}) (the copy costs a transfer the GPU never needed)'
  elseif #r < 2 then problem = 'time_matmul should read time.perf_counter() twice, before and after the product'
  else
    local first, last = r[1], r[#r]
    if first.mm > 0 then problem = 'the clock started after the product had been queued: read it just before A:mm(B)'
    elseif last.mm == 0 then problem = 'the product was not between the two clock readings'
    elseif first.random < 2 and ops(trace, 'random', device) >= 2 then
      problem = 'the timing includes creating the random matrices: create A and B before the first clock reading'
    elseif device.type == 'cuda' and last.waits <= first.waits and last.other_waits > first.other_waits then
      problem = 'the host waited for another GPU, not for ' .. where .. ' where the product ran: '
                .. 'torch.cuda.synchronize() waits for the current device only; pass the device, '
                .. 'torch.cuda.synchronize(device)'
    elseif device.type == 'cuda' and last.waits <= first.waits then
      problem = 'on ' .. where .. ' the clock was read again without waiting for the GPU, so it timed only the '
                .. 'queueing of the product: call torch.cuda.synchronize(device) before the second time.perf_counter()'
    elseif device.type == 'cuda' and syncs(trace, 'synchronize', device) == 0 then
      problem = 'the wait should be torch.cuda.synchronize(device) (copying a result to the host times the copy too)'
    elseif seconds < 0 or seconds > 10 * (last.at - first.at) + 1e-3 then  -- milliseconds, or the readings swapped
      problem = string.format('time_matmul returned %.4g, but %.4g seconds passed between your first and last clock '
                              .. 'readings: return the seconds, the second reading minus the first', seconds,
                              last.at - first.at)
    end
  end
  if problem then break end
end
time.perf_counter = real_clock
if problem then fail(problem) end
