-- Checker for 003_write_parameters.lua
local b = net[0].bias
if b ~= first_bias then
  check(false, "net[0].bias was replaced by a new tensor: write into the existing one "
        .. "(net[0].bias.data:fill_(...) or :copy_(...))")
elseif b.device.type ~= 'cuda' then
  check(false, "the bias is on " .. tostring(b.device) .. ": the model should still be on the GPU")
else
  check(b.data:cpu():equal(torch.full({3}, 0.5)), "net[0].bias should be all 0.5, it is "
        .. tostring(b.data:cpu()):gsub("\n", " "))
end
check(net[2].weight.device.type == 'cuda', "the model was moved off the GPU: read a copy with :cpu() instead")
if w_host == nil then check(false, "w_host is still a blank: replace `...` with a CPU copy of net[2].weight") return end
if not check(torch.is_tensor(w_host), "w_host should be a tensor") then return end
check(w_host.device.type == 'cpu', "w_host is on " .. tostring(w_host.device) .. ": it is not a host copy yet (:cpu())")
check(w_host.device.type ~= 'cpu' or w_host:equal(net[2].weight.data:cpu()), "w_host should hold net[2].weight's values")
