-- Checker for 002_strip_module_prefix.lua
-- needs: 1 GPU
local strip = need_function('strip_module_prefix')
if not strip then return end
fresh_seed()
local Inner = nn.Module:extend('CheckerNet')
function Inner:__init()
  self.submodule = nn.Linear(2, 2)
  self.head = nn.Linear(2, 1)
end
function Inner:forward(x) return self.head(self.submodule(x)) end
local wrapped = nn.DataParallel(Inner():to(try_gpu()))
local sd = wrapped:state_dict()
local trace, ok, new = traced(strip, sd)
if not ok then
  if tostring(new):find('index is nil') then
    fail('strip_module_prefix raised "' .. first_line(new) .. '": namekey is still a blank (TODO); '
         .. "make it the key without a leading 'module.' (k:sub(8) when k starts with it)")
  else
    fail('strip_module_prefix raised an error: ' .. first_line(new))
  end
  return
end
if not check(type(new) == 'table', 'strip_module_prefix should return a table (the new state dict)') then return end
local keys = {}
for k in pairs(new) do keys[#keys + 1] = tostring(k) end
table.sort(keys)
for _, k in ipairs(keys) do
  if k:sub(1, 7) == 'module.' then
    fail("the key '" .. k .. "' still starts with 'module.': strip those 7 characters (k:sub(8))")
    return
  end
end
local want = {['submodule.weight'] = true, ['submodule.bias'] = true, ['head.weight'] = true, ['head.bias'] = true}
for _, k in ipairs(keys) do
  if not want[k] then
    if k:sub(1, 6) == 'odule.' or k:sub(1, 1) == '.' or k:find('^sub[wb]') then
      fail("the key '" .. k .. "' lost too much or too little: remove only a LEADING 'module.' "
           .. "(7 characters: k:sub(8)); 'module.submodule.weight' must become 'submodule.weight'")
    else
      fail("strip_module_prefix returned the key '" .. k .. "', which is not in the state dict it was given: "
           .. 'build the new table from its argument (not from a model of your own, such as trained.module)')
    end
    return
  end
end
for k in pairs(want) do
  if not check(new[k] ~= nil, "the key '" .. k .. "' (from 'module." .. k .. "') is missing") then return end
  if not check(new[k] == sd['module.' .. k],
               "new_state_dict['" .. k .. "'] should be the very tensor of state_dict['module." .. k .. "']"
               .. ' (keep the values, change only the keys)') then return end
end
local extra = {['module.x'] = torch.ones(1), ['head.bias'] = torch.zeros(1)}
local ok2, kept = pcall(strip, {['other.weight'] = extra['module.x']})
check(ok2 and type(kept) == 'table' and kept['other.weight'] == extra['module.x'],
      "a key without the prefix should stay as it is ('other.weight' stays 'other.weight')")
check(trace.h2d.calls + trace.d2h.calls + trace.d2d.calls == 0,
      'renaming keys should copy no tensor data (' .. (trace.h2d.calls + trace.d2h.calls + trace.d2d.calls)
      .. ' copies): keep the same tensors')
local plain = Inner()
local ok3, err = pcall(function() return plain:load_state_dict(new) end)
check(ok3, 'a plain model still refuses the result: ' .. first_line(err))
