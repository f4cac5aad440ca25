-- Checker for 003_try_gpu.lua: runs the functions while torch.cuda pretends
-- to have 0, 1 and 3 GPUs (device_count and is_available are replaced).
local pick_gpu, all_gpus = need_function('pick_gpu'), need_function('all_gpus')
if not (pick_gpu and all_gpus) then return end
local real_count, real_available = torch.cuda.device_count, torch.cuda.is_available
local function name(d) return d == nil and 'nil' or tostring(d) end
local problem
for _, n in ipairs({1, 3, 0}) do
  torch.cuda.device_count = function() return n end
  torch.cuda.is_available = function() return n > 0 end
  local here = n .. (n == 1 and ' GPU' or ' GPUs')
  for _, i in ipairs({0, 1, 2, 5}) do
    local ok, d = pcall(pick_gpu, i)
    local want = i < n and 'cuda:' .. i or 'cpu'
    if not ok then problem = 'pick_gpu(' .. i .. ') with ' .. here .. ' raised an error: ' .. first_line(d)
    elseif d == nil then problem = 'pick_gpu returns nothing yet: return torch.device(\'cuda:\' .. i) or torch.device(\'cpu\')'
    elseif type(d) == 'string' then problem = 'pick_gpu returned the string \'' .. d .. '\': return a torch.device (torch.device(\'' .. d .. '\'))'
    elseif name(d) ~= want then
      problem = 'with ' .. here .. ', pick_gpu(' .. i .. ') should be ' .. want .. ', not ' .. name(d)
      if i == n then problem = problem .. ': GPUs count from 0, so cuda:i exists only when i < device_count()' end
      if n == 0 and want == 'cpu' then problem = problem .. ' (with no GPU, every i falls back to the CPU)' end
    end
    if problem then break end
  end
  if not problem then
    local ok, list = pcall(all_gpus)
    if not ok then problem = 'all_gpus() with ' .. here .. ' raised an error: ' .. first_line(list)
    elseif type(list) ~= 'table' then problem = 'all_gpus should return a list (a Lua table) of devices'
    else
      local got = {}
      for k, d in ipairs(list) do got[k] = name(d) end
      local want = {}
      for k = 0, n - 1 do want[#want + 1] = 'cuda:' .. k end
      if n == 0 then want = {'cpu'} end
      if table.concat(got, ' ') ~= table.concat(want, ' ') then
        problem = 'with ' .. here .. ', all_gpus() should be {' .. table.concat(want, ', ') .. '}, not {'
                  .. table.concat(got, ', ') .. '}'
        if n == 0 then problem = problem .. ': with no GPU, return {torch.device(\'cpu\')}'
        elseif #got ~= n then problem = problem .. ': ask torch.cuda.device_count() how many there are' end
      end
    end
  end
  if problem then break end
end
torch.cuda.device_count, torch.cuda.is_available = real_count, real_available
if problem then fail(problem) end
