-- Checker for 000_mixed_devices.lua
if z == nil then check(false, "z is still a blank: replace `...` with the sum") return end
if not check(torch.is_tensor == nil or torch.is_tensor(z), "z should be a tensor") then return end
check(x.device.type == 'cpu', "x itself should stay on the CPU: move a copy (x:to(...)), not x")
check(y.device.type == 'cuda', "y should stay on the GPU")
if z.device.type ~= 'cuda' then
  check(false, "z is on " .. tostring(z.device) .. ": you moved y to the CPU instead of x to the GPU")
else
  check(z:cpu():equal(torch.tensor({2, 6, 12})), "z should be y + x = [2, 6, 12]")
end
