-- expect: (keep the values, change only the keys)
-- exercise: 002_strip_module_prefix
function strip_module_prefix(state_dict)
  local new_state_dict = {}
  for k, v in pairs(state_dict) do new_state_dict[k:sub(8)] = v:cpu():to(v.device) end
  return new_state_dict
end
