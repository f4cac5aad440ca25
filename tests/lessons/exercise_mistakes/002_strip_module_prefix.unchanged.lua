-- expect: still starts with 'module.': strip those 7 characters (k:sub(8))
-- exercise: 002_strip_module_prefix
function strip_module_prefix(state_dict)
  local new_state_dict = {}
  for k, v in pairs(state_dict) do new_state_dict[k] = v end
  return new_state_dict
end
