-- Checker for 002_manual_seed.lua
-- needs: 1 GPU
local noise_on = need_function('noise_on')
if not noise_on then return end
local problem
for d = gpus() - 1, 0, -1 do
  local device = torch.device('cuda:' .. d)
  local seed = math.random(1, 100000)
  local trace, ok, a = traced(noise_on, device, seed)
  torch.randn(7, {device = device}); torch.randn(3)  -- other work in between
  local ok2, b = pcall(noise_on, device, seed)
  local ok3, c = pcall(noise_on, device, seed + 1)
  local where = tostring(device)
  if not (ok and ok2 and ok3) then
    problem = 'noise_on(' .. where .. ', seed) raised an error: ' .. first_line(not ok and a or not ok2 and b or c)
  elseif a == nil then problem = 'noise_on returns nothing yet: seed, then return torch.randn(5, {device = device})'
  elseif not torch.is_tensor(a) or a:numel() ~= 5 then problem = 'noise_on should return a tensor of 5 numbers'
  elseif tostring(a.device) ~= where then
    problem = 'noise_on(' .. where .. ', seed) returned a tensor on ' .. tostring(a.device) .. ': draw on `device`'
  elseif ops(trace, 'random', 'cpu') > 0 or trace.h2d.calls > 0 then
    problem = 'the numbers were drawn on the CPU and copied to ' .. where
              .. ': draw them on the GPU itself (torch.randn(5, {device = device}))'
  elseif not a:equal(b) then
    problem = 'two calls noise_on(' .. where .. ', ' .. seed .. ') gave different numbers: '
    if d ~= torch.cuda.current_device() then
      problem = problem .. 'torch.cuda.manual_seed seeds only the current GPU (cuda:' .. torch.cuda.current_device()
                .. '); seed every GPU with torch.cuda.manual_seed_all(seed) (or torch.manual_seed(seed))'
    else
      problem = problem .. 'seed the GPU generator with the argument before drawing'
    end
  elseif a:equal(c) then
    problem = 'seeds ' .. seed .. ' and ' .. (seed + 1) .. ' gave the same numbers: seed with the argument `seed`'
  end
  if problem then break end
end
if problem then fail(problem) end
