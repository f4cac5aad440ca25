-- Checker for 002_strip_module_prefix.lua
local keys = {}
for k in pairs(new_state_dict) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do
  if k:sub(1, 7) == 'module.' then
    check(false, "the key '" .. k .. "' still starts with 'module.': strip those 7 characters (k:sub(8))")
    return
  end
  if k:sub(1, 6) == 'odule.' or k:sub(1, 1) == '.' then
    check(false, "the key '" .. k .. "' lost too much or too little: 'module.' is 7 characters, keep k:sub(8)")
    return
  end
end
local ok, err = pcall(function() return plain:load_state_dict(new_state_dict) end)
if not check(ok, "load_state_dict still fails: " .. tostring(err):match("[^\n]*")) then return end
check(plain.linears[0].weight.data:equal(trained.module.linears[0].weight.data),
      "the weights did not come across unchanged")
