-- Checker for 002_map_location.lua
if state_dict == nil then check(false, "state_dict is still a blank: replace `...` with torch.load(path, ...)") return end
local w = state_dict['weight']
if not check(w ~= nil, "state_dict has no 'weight': load the file that was saved at `path`") then return end
if w.device.type ~= 'cpu' then
  check(false, "the tensors are still on " .. tostring(w.device)
        .. ": a CPU-only machine cannot create them there; pass {map_location = 'cpu'}")
  return
end
local ok, err = pcall(function() return laptop_net:load_state_dict(state_dict) end)
if not check(ok, "laptop_net:load_state_dict(state_dict) failed: " .. tostring(err):match("[^\n]*")) then return end
check(laptop_net.weight.data:equal(net.weight.data:cpu()), "the loaded weights differ from the saved ones")
