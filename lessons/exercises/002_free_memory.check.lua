-- Checker for 002_free_memory.lua: fills one GPU, then another, and asks again.
-- needs: 2 GPUs
local by_free = need_function('gpus_by_free_memory')
if not by_free then return end
local n = gpus()
local function expected()
  local order, free = {}, {}
  for i = 0, n - 1 do order[#order + 1] = i; free[i] = torch.cuda.mem_get_info(i) end
  table.sort(order, function(a, b) return free[a] > free[b] or (free[a] == free[b] and a < b) end)
  return order
end
local function same(got, want)
  if type(got) ~= 'table' or #got ~= #want then return false end
  for k = 1, #want do if got[k] ~= want[k] then return false end end
  return true
end
local function text(list)
  local parts = {}
  for k, v in ipairs(type(list) == 'table' and list or {}) do parts[k] = tostring(v) end
  return '{' .. table.concat(parts, ', ') .. '}'
end
local problem, mismatch, all_reversed = nil, nil, true
for _, busy in ipairs({0, n - 1}) do
  local filler = {}
  for i = 0, n - 1 do  -- GPU `busy` gets the most, the others less and less
    local mib = i == busy and 96 or 8 * ((i + busy) % n)
    if mib > 0 then filler[#filler + 1] = torch.empty({mib * 2^18}, {device = 'cuda:' .. i}) end
  end
  local want = expected()
  local ok, got = pcall(by_free)
  if not ok then problem = 'gpus_by_free_memory() raised an error: ' .. first_line(got)
  elseif type(got) ~= 'table' then problem = 'gpus_by_free_memory should return a list of GPU indices'
  elseif type(got[1]) ~= 'number' then problem = 'gpus_by_free_memory should return GPU indices (numbers), not '
                                                 .. type(got[1]) .. 's'
  elseif not same(got, want) then
    mismatch = mismatch or ('with cuda:' .. busy .. ' the busiest, the order should be ' .. text(want) .. ', not ' .. text(got))
    for k = 1, #want do if got[k] ~= want[#want + 1 - k] then all_reversed = false end end
  else
    all_reversed = false
  end
  filler = nil
  collectgarbage()
  torch.cuda.empty_cache()
  if problem then break end
end
if problem then fail(problem)
elseif mismatch and all_reversed then
  fail(mismatch .. ': the GPU with the MOST free memory comes first (compare with >)')
elseif mismatch then
  fail(mismatch .. ': sort by torch.cuda.mem_get_info(i), asked now (free memory changes)')
end
